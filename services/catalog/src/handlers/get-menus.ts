import type { RpcHandler } from '@od/bus';
import { errors } from '@od/errors';
import { type HandlerDeps, ownMerchantId } from './common.ts';

/** GET /v1/merchant/{merchantId}/menus: an array holding the store's single menu. */
export const getMenus =
  ({ cache }: HandlerDeps): RpcHandler =>
  async (req) => {
    const store = await cache.get(ownMerchantId(req));
    if (!store) return errors.notFound(req.traceId);
    return { status: 200, body: store.menus };
  };
