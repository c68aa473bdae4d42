import {
  type Actor,
  DEFAULT_CANCELLATION_REASON,
  MAX_CANCELLATION_REASON,
  type OpHandler,
  type ORDER_OPS,
  type Principal,
  type RequestOf,
} from '@od/contracts';
import { errors, HttpException } from '@od/errors';
import { notFound, type OrdersDeps } from '../deps.ts';
import { transitionPlan } from '../domain/plans.ts';
import { CANCELLATION_CODES } from '../domain/state-machine.ts';
import { idemOf, writeOrder } from '../write.ts';

/**
 * requestCancellation's optional body `{ reason?, code? }` (code ignored; shape and control
 * characters checked by the op's schema), default pt-BR reason; a reason over 500 characters is
 * SPEC's 400 invalid_cancellation_reason.
 */
function cancellationOf(body: { reason?: string | null } | null | undefined): {
  reason: string;
  code: string;
} {
  const reason = body?.reason;
  if (typeof reason === 'string' && reason.length > MAX_CANCELLATION_REASON)
    throw new HttpException(errors.invalidCancellationReason());
  return {
    reason: typeof reason === 'string' && reason.trim() !== '' ? reason : DEFAULT_CANCELLATION_REASON,
    code: CANCELLATION_CODES.merchant,
  };
}

async function runAction(
  deps: OrdersDeps,
  req: RequestOf<typeof ORDER_OPS.adminAction>,
  actor: Actor,
  scope: { merchantId?: string; hidePendingPayment: boolean },
) {
  const { orderId, action } = req.params;
  const cancellation = action === 'requestCancellation' ? cancellationOf(req.body) : undefined;
  return writeOrder(deps, {
    scope: { orderId, ...scope },
    actor,
    idem: idemOf(req),
    plan: (o) => transitionPlan(o, action, cancellation),
  });
}

/** `action` (POST /v1/orders/{orderId}/{action}): actor = the credential; other stores' orders 404. */
export function publicAction(deps: OrdersDeps): OpHandler<typeof ORDER_OPS.action> {
  return async (req) => {
    if (!req.auth) throw notFound();
    return runAction(
      deps,
      req,
      { kind: 'CREDENTIAL', clientId: req.auth.clientId },
      {
        merchantId: req.auth.merchantId,
        hidePendingPayment: true,
      },
    );
  };
}

/**
 * `admin.action` (panel click): same rules, actor PANEL with the merchant user who clicked (none
 * for the Admin API); unpaid orders are visible (422).
 */
export function adminAction(deps: OrdersDeps): OpHandler<typeof ORDER_OPS.adminAction> {
  return (req) => runAction(deps, req, panelActor(req.caller), { hidePendingPayment: false });
}

/** actor PANEL, with the merchant user when one made the call (as the panel signed it) */
export function panelActor(caller: Principal): Actor {
  return caller.kind === 'merchantUser'
    ? { kind: 'PANEL', userId: caller.userId, ...(caller.email ? { email: caller.email } : {}) }
    : { kind: 'PANEL' };
}
