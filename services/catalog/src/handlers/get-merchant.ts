import type { RpcHandler } from '@od/bus';
import { errors } from '@od/errors';
import { type HandlerDeps, ownMerchantId } from './common.ts';

/** GET /v1/merchant/{merchantId}: the stored public JSON, forwarded as is. */
export const getMerchant =
  ({ cache }: HandlerDeps): RpcHandler =>
  async (req) => {
    const store = await cache.get(ownMerchantId(req));
    if (!store) return errors.notFound(req.traceId);
    return { status: 200, body: store.merchant };
  };
