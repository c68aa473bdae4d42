import type { RouteModule } from '../context.ts';
import { eventRoutes } from './events.ts';
import { merchantRoutes } from './merchant.ts';
import { orderRoutes } from './orders.ts';
import { tokenRoutes } from './token.ts';

/** Every public route family; one file each. */
export const publicRoutes: RouteModule[] = [tokenRoutes, merchantRoutes, orderRoutes, eventRoutes];
