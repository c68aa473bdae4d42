import { z } from 'zod';
import { text } from './limits.ts';
import { MENU_STATUSES } from './menu.ts';

/**
 * components/schemas/MerchantUpdate (the Open Delivery webhook `/v1/menuUpdated`); the body may
 * also be empty (the gateway passes `{}`). The body of catalog's `od.menuUpdated` op.
 */
export const merchantUpdateSchema = z.object({
  merchantStatus: z.enum(MENU_STATUSES).optional(),
  entityType: text(40).optional(),
  updatedObjects: z.array(z.unknown()).max(1000).optional(),
});
export type MerchantUpdate = z.infer<typeof merchantUpdateSchema>;
