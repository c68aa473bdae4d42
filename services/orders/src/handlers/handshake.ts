import {
  type HandshakeStep,
  type OpHandler,
  type ORDER_OPS,
  odCancellationDenialSchema,
  odCancellationRequestSchema,
} from '@od/contracts';
import { errors, fieldErrorsFromIssues, HttpException } from '@od/errors';
import type { z } from 'zod';
import { notFound, type OrdersDeps } from '../deps.ts';
import { type HandshakeInput, handshakePlan } from '../domain/handshake.ts';
import { CANCELLATION_CODES, type HandshakeTrigger } from '../domain/state-machine.ts';
import { idemOf, writeOrder } from '../write.ts';

/** Parses `body` with `schema` or throws the 400 of the caller's error form. */
function parse<S extends z.ZodType>(schema: S, body: unknown, fail: (f: Record<string, string[]>) => never) {
  const r = schema.safeParse(body ?? {});
  if (!r.success) fail(fieldErrorsFromIssues(r.error.issues));
  return r.data as z.output<S>;
}

const STEP_TRIGGER: Record<HandshakeStep, HandshakeTrigger> = {
  requestCancellation: 'merchantRequestsCancellation',
  acceptCancellation: 'merchantAcceptsCancellation',
  denyCancellation: 'merchantDeniesCancellation',
};

/**
 * `handshake` (POST /v1/orders/{orderId}/{requestCancellation|acceptCancellation|denyCancellation}
 * of an OPEN_DELIVERY credential; the gateway calls it for those only): the point of sale's side of
 * the Open Delivery cancellation handshake. Bodies are the standard's (RequestCancelled,
 * RequestDenied; acceptCancellation has none).
 */
export function publicHandshake(deps: OrdersDeps): OpHandler<typeof ORDER_OPS.handshake> {
  return async (req) => {
    if (!req.auth) throw notFound();
    const { orderId, step } = req.params;
    const fail = (f: Record<string, string[]>): never => {
      throw new HttpException(errors.validation(f, req.traceId));
    };
    let input: HandshakeInput = {};
    if (step === 'requestCancellation') {
      const { reason, code, ...detail } = parse(odCancellationRequestSchema, req.body, fail);
      input = { reason, code, detail };
    } else if (step === 'denyCancellation') {
      const { reason, code } = parse(odCancellationDenialSchema, req.body, fail);
      input = { reason, detail: { code } };
    }
    return writeOrder(deps, {
      scope: { orderId, merchantId: req.auth.merchantId, hidePendingPayment: true },
      actor: { kind: 'CREDENTIAL', clientId: req.auth.clientId },
      idem: idemOf(req),
      plan: (o) => handshakePlan(o, STEP_TRIGGER[step], input),
    });
  };
}

/**
 * `admin.cancellationRequest` `{ by: CUSTOMER | PLATFORM, reason? }`: the ordering application's
 * side asks the point of sale to cancel (ORDER_CANCELLATION_REQUEST; only OPEN_DELIVERY credentials
 * receive it and can answer it).
 */
export function adminCancellationRequest(
  deps: OrdersDeps,
): OpHandler<typeof ORDER_OPS.adminCancellationRequest> {
  return async (req) => {
    const { by, reason } = req.body;
    const code = by === 'CUSTOMER' ? CANCELLATION_CODES.customer : CANCELLATION_CODES.merchant;
    return writeOrder(deps, {
      scope: { orderId: req.params.orderId, hidePendingPayment: false },
      actor: by === 'CUSTOMER' ? { kind: 'CUSTOMER' } : { kind: 'CHANNEL' },
      idem: idemOf(req),
      plan: (o) => handshakePlan(o, 'platformRequestsCancellation', { reason, code }),
    });
  };
}

/**
 * `admin.cancellationDecision` (accept | deny, `{ reason? }`): the ordering application decides a
 * point of sale's request (CANCELLED or CANCELLATION_REQUEST_DENIED).
 */
export function adminCancellationDecision(
  deps: OrdersDeps,
): OpHandler<typeof ORDER_OPS.adminCancellationDecision> {
  return async (req) => {
    const reason = req.body?.reason;
    const trigger =
      req.params.decision === 'accept' ? 'platformAcceptsCancellation' : 'platformDeniesCancellation';
    return writeOrder(deps, {
      scope: { orderId: req.params.orderId, hidePendingPayment: false },
      actor: { kind: 'CHANNEL' },
      idem: idemOf(req),
      plan: (o) => handshakePlan(o, trigger, { reason }),
    });
  };
}
