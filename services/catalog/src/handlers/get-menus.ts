import type { CATALOG_OPS, OpHandler } from '@od/contracts';
import { errors } from '@od/errors';
import { type HandlerDeps, ownMerchantId } from './common.ts';

/** GET /v1/merchant/{merchantId}/menus: an array holding the store's single menu. */
export const getMenus =
  ({ cache }: HandlerDeps): OpHandler<typeof CATALOG_OPS.getMenus> =>
  async (req) => {
    const store = await cache.get(ownMerchantId(req));
    if (!store) return errors.notFound(req.traceId);
    return { status: 200, body: store.menus };
  };
