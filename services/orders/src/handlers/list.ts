import { historyPosition, type OpHandler, type ORDER_OPS, pageBody } from '@od/contracts';
import { errors, HttpException } from '@od/errors';
import { listOrders } from '../db/list.ts';
import type { OrdersDeps } from '../deps.ts';

/**
 * `list` (GET /v1/orders, extension): the credential's store's orders in a date range, newest first,
 * keyset-paged (docs/api.md "Rebuilding a day"). Unpaid orders never appear; marketplace orders
 * only when the credential includes them (the flag comes signed from the gateway).
 */
export function listOrdersHandler(deps: OrdersDeps): OpHandler<typeof ORDER_OPS.list> {
  return async (req) => {
    const merchantId = req.auth?.merchantId;
    if (!merchantId) throw new HttpException(errors.unauthenticated());
    const pos = historyPosition(req.query, new Date());
    if ('errors' in pos) throw new HttpException(errors.validation(pos.errors, req.traceId));
    const rows = await listOrders(deps.pool, {
      merchantId,
      from: pos.range.from,
      to: pos.range.to,
      after: pos.after,
      situation: req.query.situation,
      includeMarketplace: req.query.includeMarketplaceOrders,
      take: pos.limit + 1,
    });
    return { status: 200, body: Buffer.from(pageBody('orders', rows, pos.limit)) };
  };
}
