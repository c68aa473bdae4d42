import { isGuid, type OpHandler, type ORDER_OPS } from '@od/contracts';
import { errors } from '@od/errors';
import type { OrdersDeps } from '../core.ts';

/**
 * `get` (GET /v1/orders/{orderId}, hot path): one prepared statement returns the stored public
 * document as text; its bytes travel untouched to the client. Unknown, foreign-store and unpaid
 * (PENDING_PAYMENT) orders are all `404 order_not_found`.
 */
export function getOrder(deps: OrdersDeps): OpHandler<typeof ORDER_OPS.get> {
  return async (req) => {
    const orderId = req.params?.orderId;
    const merchantId = req.auth?.merchantId;
    if (!isGuid(orderId) || !isGuid(merchantId)) return errors.orderNotFound();
    const { rows } = await deps.pool.query<{ d: string }>({
      name: 'orders.get',
      text: "SELECT document::text AS d FROM orders WHERE id = $1 AND merchant_id = $2 AND situation <> 'PENDING_PAYMENT'",
      values: [orderId, merchantId],
    });
    if (rows.length === 0) return errors.orderNotFound();
    return { status: 200, body: rows[0].d };
  };
}
