import type { RouteModule } from '../context.ts';
import { eventRoutes } from './events.ts';
import { historyRoutes } from './history.ts';
import { merchantRoutes } from './merchant.ts';
import { odFlowRoutes } from './od-flows.ts';
import { odMerchantRoutes } from './od-merchant.ts';
import { openDeliveryRoutes } from './opendelivery.ts';
import { orderRoutes } from './orders.ts';
import { tokenRoutes } from './token.ts';

/** Every public route family; one file each. The profile first: its hook wraps the others. */
export const publicRoutes: RouteModule[] = [
  openDeliveryRoutes,
  tokenRoutes,
  merchantRoutes,
  orderRoutes,
  odFlowRoutes,
  eventRoutes,
  historyRoutes,
  odMerchantRoutes,
];
