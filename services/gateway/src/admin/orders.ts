import type { RouteModule } from '../context.ts';

/** Admin routes served by the orders service. (Not yet built.) */
export const orderAdminRoutes: RouteModule = (_app, _ctx) => {};
