import type { RouteModule } from '../context.ts';

/** Admin routes served by the catalog service. (Not yet built.) */
export const merchantAdminRoutes: RouteModule = (_app, _ctx) => {};
