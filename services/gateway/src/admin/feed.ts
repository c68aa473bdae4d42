import type { RouteModule } from '../context.ts';

/** Admin routes served by the feed service. (Not yet built.) */
export const feedAdminRoutes: RouteModule = (_app, _ctx) => {};
