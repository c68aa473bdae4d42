import type { RouteModule } from '../context.ts';

/** Public routes served by the feed service. (Not yet built: unknown routes answer 404 ProblemDetails.) */
export const eventRoutes: RouteModule = (_app, _ctx) => {};
