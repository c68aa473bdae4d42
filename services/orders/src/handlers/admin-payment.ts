import type { OpHandler, ORDER_OPS } from '@od/contracts';
import type { OrdersDeps } from '../deps.ts';
import { transitionPlan } from '../domain/plans.ts';
import { idemOf, writeOrder } from '../write.ts';

/** `admin.payment`: online payment confirmed, PENDING_PAYMENT -> PENDING emitting CREATED. */
export function adminPayment(deps: OrdersDeps): OpHandler<typeof ORDER_OPS.adminPayment> {
  return (req) =>
    writeOrder(deps, {
      scope: { orderId: req.params?.orderId ?? '', hidePendingPayment: false },
      actor: { kind: 'PAYMENT_SYSTEM' },
      idem: idemOf(req),
      plan: (o) => transitionPlan(o, 'pay'),
    });
}
