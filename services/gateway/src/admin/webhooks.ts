import type { RouteModule } from '../context.ts';

/** Admin routes served by the webhook service. (Not yet built.) */
export const webhookAdminRoutes: RouteModule = (_app, _ctx) => {};
