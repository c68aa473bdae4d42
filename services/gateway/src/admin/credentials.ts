import type { RouteModule } from '../context.ts';

/** Admin routes served by the auth service. (Not yet built.) */
export const credentialAdminRoutes: RouteModule = (_app, _ctx) => {};
