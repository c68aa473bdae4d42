import type { OpHandler, ORDER_OPS } from '@od/contracts';
import type { OrdersDeps } from '../deps.ts';
import { transitionPlan } from '../domain/plans.ts';
import { CANCELLATION_CODES } from '../domain/state-machine.ts';
import { idemOf, writeOrder } from '../write.ts';

const DEFAULT_REASON = {
  CUSTOMER: 'Pedido cancelado pelo cliente.',
  MERCHANT: 'Pedido cancelado pelo estabelecimento.',
} as const;

/**
 * `admin.cancel` `{ by: CUSTOMER | MERCHANT, reason? }`: cancellation from the panel or by the
 * customer, from any state but CANCELLED (DONE included: SPEC's table; see state-machine.ts).
 */
export function adminCancel(deps: OrdersDeps): OpHandler<typeof ORDER_OPS.adminCancel> {
  return async (req) => {
    const { by, reason } = req.body;
    const cancellation = {
      reason: reason?.trim() ? reason : DEFAULT_REASON[by],
      code: by === 'CUSTOMER' ? CANCELLATION_CODES.customer : CANCELLATION_CODES.merchant,
    };
    return writeOrder(deps, {
      scope: { orderId: req.params?.orderId ?? '', hidePendingPayment: false },
      actor: by === 'CUSTOMER' ? { kind: 'CUSTOMER' } : { kind: 'PANEL' },
      idem: idemOf(req),
      plan: (o) => transitionPlan(o, 'cancel', cancellation),
    });
  };
}
