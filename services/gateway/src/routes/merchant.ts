import type { RouteModule } from '../context.ts';

/** Public routes served by the catalog service. (Not yet built: unknown routes answer 404 ProblemDetails.) */
export const merchantRoutes: RouteModule = (_app, _ctx) => {};
