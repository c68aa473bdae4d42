import type { CATALOG_OPS, MerchantSnapshot, OpHandler } from '@od/contracts';
import { adminMerchantId, type HandlerDeps, storeNotFound } from './common.ts';

/** admin.merchant.menu: the store's public menu (the panel's menu editor reads it) -> 200 { menu } | 404. */
export const adminGetMenu =
  ({ cache }: HandlerDeps): OpHandler<typeof CATALOG_OPS.adminGetMenu> =>
  async (req) => {
    const store = await cache.get(adminMerchantId(req));
    if (!store) throw storeNotFound();
    const snapshot = JSON.parse(Buffer.from(store.snapshot).toString('utf8')) as MerchantSnapshot;
    return { status: 200, body: { menu: snapshot.menu } };
  };
