import { type CATALOG_OPS, isGuid, type OpHandler } from '@od/contracts';
import { errors } from '@od/errors';
import type { HandlerDeps } from './common.ts';

/** internal.merchantSnapshot: body { merchantId } -> 200 MerchantSnapshot | 404. */
export const merchantSnapshot =
  ({ cache }: HandlerDeps): OpHandler<typeof CATALOG_OPS.merchantSnapshot> =>
  async (req) => {
    const id = req.body.merchantId;
    if (!isGuid(id)) return errors.adminNotFound('Estabelecimento');
    const store = await cache.get(id.toLowerCase());
    if (!store) return errors.adminNotFound('Estabelecimento');
    return { status: 200, body: store.snapshot };
  };
