import type { CATALOG_OPS, OpHandler } from '@od/contracts';
import { errors } from '@od/errors';
import { type HandlerDeps, ownMerchantId } from './common.ts';

/**
 * The public reads of the credential's own store, served from this replica's rendered cache:
 * `merchant` = GET /v1/merchant/{merchantId} (the stored public JSON, as is), `menus` = GET
 * /v1/merchant/{merchantId}/menus (an array holding the store's single menu).
 */
export const servedPart =
  (part: 'merchant' | 'menus') =>
  ({ cache }: HandlerDeps): OpHandler<typeof CATALOG_OPS.getMerchant | typeof CATALOG_OPS.getMenus> =>
  async (req) => {
    const store = await cache.get(ownMerchantId(req));
    if (!store) return errors.notFound(req.traceId);
    return { status: 200, body: store[part] };
  };

export const getMerchant = servedPart('merchant');
