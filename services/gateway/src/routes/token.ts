import type { RouteModule } from '../context.ts';

/** Public routes served by the auth service. (Not yet built: unknown routes answer 404 ProblemDetails.) */
export const tokenRoutes: RouteModule = (_app, _ctx) => {};
