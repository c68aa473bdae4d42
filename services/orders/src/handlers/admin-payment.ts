import type { RpcHandler } from '@od/bus';
import { applyTrigger, type OrdersDeps } from '../core.ts';

/** `admin.payment`: online payment confirmed, PENDING_PAYMENT -> PENDING emitting CREATED. */
export function adminPayment(deps: OrdersDeps): RpcHandler {
  return async (req) => ({
    status: 202,
    body: await applyTrigger(deps, {
      orderId: req.params?.orderId ?? '',
      trigger: 'pay',
      actor: { kind: 'PAYMENT_SYSTEM' },
      hidePendingPayment: false,
    }),
  });
}
