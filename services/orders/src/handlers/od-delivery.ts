import { timingSafeEqual } from 'node:crypto';
import type { OpHandler, ORDER_OPS } from '@od/contracts';
import { errors, HttpException } from '@od/errors';
import { visibleOrderColumn } from '../db/orders.ts';
import { notFound, type OrdersDeps } from '../deps.ts';
import { MAX_TRACKING_ENTRIES } from '../domain/limits.ts';
import { acceptsTracking } from '../domain/state-machine.ts';
import { idemOf, writeOrder } from '../write.ts';

const sameCode = (a: string, b: string) =>
  a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

/**
 * `validateCode` (POST /v1/orders/{orderId}/validateCode?deliveryCode=, Open Delivery): synchronous,
 * no event. 200 `{ orderId, deliveryCode }` when the code is the order's (compared in constant
 * time), else 400 with the cause. Other stores' and unpaid orders are 404.
 */
export function validateCode(deps: OrdersDeps): OpHandler<typeof ORDER_OPS.validateCode> {
  return async (req) => {
    const { orderId } = req.params;
    const code = await visibleOrderColumn(
      deps.pool,
      'orders.deliveryCode',
      'delivery_code',
      orderId,
      req.auth?.merchantId,
    );
    if (code === undefined) return errors.orderNotFound();
    const given = req.query.deliveryCode.trim();
    if (!sameCode(given, code)) return errors.invalidDeliveryCode();
    return { status: 200, body: { orderId, deliveryCode: given } };
  };
}

/**
 * `tracking` (POST /v1/orders/{orderId}/tracking, Open Delivery OrderTracking): a delivery update
 * from a point of sale that delivers itself. Recorded in the order's history (admin API and panel
 * show it); no event, no change of situation. 422 when the order is not a DELIVERY order under way.
 * Only the newest MAX_TRACKING_ENTRIES updates stay: an order's history cannot grow without bound.
 */
export function tracking(deps: OrdersDeps): OpHandler<typeof ORDER_OPS.tracking> {
  return async (req) => {
    if (!req.auth) throw notFound();
    return writeOrder(deps, {
      scope: { orderId: req.params.orderId, merchantId: req.auth.merchantId, hidePendingPayment: true },
      actor: { kind: 'CREDENTIAL', clientId: req.auth.clientId },
      idem: idemOf(req),
      plan: (o) => {
        if (!acceptsTracking(o.type, o.situation))
          throw new HttpException(errors.invalidTransition(o.situation, 'tracking'));
        return {
          change: { history: { trigger: 'tracking', detail: req.body, keepLast: MAX_TRACKING_ENTRIES } },
          answer: () => ({ status: 202, body: { status: 'accepted', situation: o.situation } }),
        };
      },
    });
  };
}
