import { OD_EVENT_TYPE_VALUES, type OpHandler, type ORDER_OPS } from '@od/contracts';
import { errors } from '@od/errors';
import { openDeliveryView, visibleOrderColumn } from '../db/orders.ts';
import type { OrdersDeps } from '../deps.ts';

/** Platform event types an Open Delivery `lastEvent` can name (the standard's, and the courier's delivery). */
const OD_LAST_EVENT_SOURCES = [...OD_EVENT_TYPE_VALUES, 'COURIER_DELIVERED'];

/**
 * `get` (GET /v1/orders/{orderId}, hot path): one prepared statement returns the stored public
 * document as text; its bytes travel untouched to the client. Unknown, foreign-store and unpaid
 * (PENDING_PAYMENT) orders are all `404 order_not_found`. `view: open-delivery` (an OPEN_DELIVERY
 * caller) adds the order's last standard event type and its channel (OdOrderView).
 */
export function getOrder(deps: OrdersDeps): OpHandler<typeof ORDER_OPS.get> {
  return async (req) => {
    const d =
      req.query?.view === 'open-delivery'
        ? await openDeliveryView(deps.pool, req.params?.orderId, req.auth?.merchantId, OD_LAST_EVENT_SOURCES)
        : await visibleOrderColumn(
            deps.pool,
            'orders.get',
            'document',
            req.params?.orderId,
            req.auth?.merchantId,
          );
    return d === undefined ? errors.orderNotFound() : { status: 200, body: d };
  };
}
