import type { RpcHandler } from '@od/bus';
import { errors } from '@od/errors';
import { type HandlerDeps, ownMerchantId } from './common.ts';

/** GET /v1/merchant/{merchantId}/menus: an array holding the store's single menu. */
export const getMenus =
  ({ db }: HandlerDeps): RpcHandler =>
  async (req) => {
    const json = await db.menuJson(ownMerchantId(req));
    if (json === null) return errors.notFound(req.traceId);
    return { status: 200, body: `[${json}]` };
  };
