import type { RpcHandler } from '@od/bus';
import { errors } from '@od/errors';
import { type HandlerDeps, ownMerchantId } from './common.ts';

/** GET /v1/merchant/{merchantId}: the stored public JSON, forwarded as is. */
export const getMerchant =
  ({ db }: HandlerDeps): RpcHandler =>
  async (req) => {
    const json = await db.merchantJson(ownMerchantId(req));
    if (json === null) return errors.notFound(req.traceId);
    return { status: 200, body: json };
  };
