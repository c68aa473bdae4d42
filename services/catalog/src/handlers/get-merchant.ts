import type { CATALOG_OPS, OpHandler } from '@od/contracts';
import { errors } from '@od/errors';
import { type HandlerDeps, ownMerchantId } from './common.ts';

/** GET /v1/merchant/{merchantId}: the stored public JSON, forwarded as is. */
export const getMerchant =
  ({ cache }: HandlerDeps): OpHandler<typeof CATALOG_OPS.getMerchant> =>
  async (req) => {
    const store = await cache.get(ownMerchantId(req));
    if (!store) return errors.notFound(req.traceId);
    return { status: 200, body: store.merchant };
  };
