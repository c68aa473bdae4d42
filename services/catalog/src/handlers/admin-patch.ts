import type { CATALOG_OPS, OpHandler } from '@od/contracts';
import { adminMerchant, patchStore } from '../domain/merchant.ts';
import { adminMerchantId, type HandlerDeps, storeNotFound } from './common.ts';

/** PATCH /admin/v1/merchants/{merchantId}: edit store fields -> 200 Merchant + test. */
export const adminPatch =
  ({ db, now, changed }: HandlerDeps): OpHandler<typeof CATALOG_OPS.adminPatch> =>
  async (req) => {
    const id = adminMerchantId(req);
    const patch = req.body;
    const result = await db.edit(id, (s) => {
      const state = patchStore(s, patch, now().toISOString());
      return { state, result: adminMerchant(state, now()) };
    });
    if (!result) throw storeNotFound();
    changed(id);
    return { status: 200, body: result };
  };
