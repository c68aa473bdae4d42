import type { RouteModule } from '../context.ts';
import { credentialAdminRoutes } from './credentials.ts';
import { feedAdminRoutes } from './feed.ts';
import { healthRoutes } from './health.ts';
import { merchantAdminRoutes } from './merchants.ts';
import { orderAdminRoutes } from './orders.ts';
import { secretsAdminRoutes } from './secrets.ts';
import { userAdminRoutes } from './users.ts';
import { webhookAdminRoutes } from './webhooks.ts';

/** Every admin route family; one file each. */
export const adminRoutes: RouteModule[] = [
  healthRoutes,
  merchantAdminRoutes,
  credentialAdminRoutes,
  orderAdminRoutes,
  feedAdminRoutes,
  webhookAdminRoutes,
  userAdminRoutes,
  secretsAdminRoutes,
];
