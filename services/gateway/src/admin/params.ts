import { TEXT, text } from '@od/contracts';
import { z } from 'zod';

/**
 * A path id of the admin API (store, order, credential, event): any text up to TEXT.id characters;
 * the service decides whether it names something (404 not_found otherwise). Longer: 404 here.
 */
export const adminIdParam = text(TEXT.id);

/** The path parameters of the admin routes, one schema each. */
export const merchantParams = z.object({ merchantId: adminIdParam });
export const clientParams = z.object({ clientId: adminIdParam });
export const orderParams = z.object({ orderId: adminIdParam });
