import type { RouteModule } from '../context.ts';

/** Public routes served by the orders service. (Not yet built: unknown routes answer 404 ProblemDetails.) */
export const orderRoutes: RouteModule = (_app, _ctx) => {};
