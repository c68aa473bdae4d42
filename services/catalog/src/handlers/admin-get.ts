import type { CATALOG_OPS, OpHandler } from '@od/contracts';
import { adminMerchant } from '../domain/merchant.ts';
import { adminMerchantId, type HandlerDeps, storeNotFound } from './common.ts';

/** GET /admin/v1/merchants/{merchantId} -> 200 Merchant + test | 404 not_found. */
export const adminGet =
  ({ db, now }: HandlerDeps): OpHandler<typeof CATALOG_OPS.adminGet> =>
  async (req) => {
    const state = await db.load(adminMerchantId(req));
    if (!state) throw storeNotFound();
    return { status: 200, body: adminMerchant(state, now()) };
  };
