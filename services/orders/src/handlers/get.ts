import type { OpHandler, ORDER_OPS } from '@od/contracts';
import { errors } from '@od/errors';
import type { OrdersDeps } from '../core.ts';
import { visibleOrderColumn } from '../db/orders.ts';

/**
 * `get` (GET /v1/orders/{orderId}, hot path): one prepared statement returns the stored public
 * document as text; its bytes travel untouched to the client. Unknown, foreign-store and unpaid
 * (PENDING_PAYMENT) orders are all `404 order_not_found`.
 */
export function getOrder(deps: OrdersDeps): OpHandler<typeof ORDER_OPS.get> {
  return async (req) => {
    const d = await visibleOrderColumn(
      deps.pool,
      'orders.get',
      'document',
      req.params?.orderId,
      req.auth?.merchantId,
    );
    return d === undefined ? errors.orderNotFound() : { status: 200, body: d };
  };
}
