import {
  type HandshakeStep,
  type OdCancellationDenial,
  type OdCancellationRequest,
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

type StepReq = Omit<Parameters<OpHandler<typeof ORDER_OPS.odAcceptCancellation>>[0], 'body'>;

/** One step of the point of sale's side of the Open Delivery cancellation handshake. */
function handshakeStep(deps: OrdersDeps, req: StepReq, step: HandshakeStep, input: HandshakeInput) {
  if (!req.auth) throw notFound();
  return writeOrder(deps, {
    scope: { orderId: req.params.orderId, merchantId: req.auth.merchantId, hidePendingPayment: true },
    actor: { kind: 'CREDENTIAL', clientId: req.auth.clientId },
    idem: idemOf(req),
    plan: (o) => handshakePlan(o, STEP_TRIGGER[step], input),
  });
}

const requestInput = ({ reason, code, ...detail }: OdCancellationRequest): HandshakeInput => ({
  reason,
  code,
  detail,
});
const denialInput = ({ reason, code }: OdCancellationDenial): HandshakeInput => ({
  reason,
  detail: { code },
});

/**
 * POST /v1/orders/{orderId}/{requestCancellation|acceptCancellation|denyCancellation} of an
 * OPEN_DELIVERY credential (the gateway calls these for those only), one op per step; bodies are
 * the standard's (RequestCancelled, RequestDenied; acceptCancellation has none), checked by the ops.
 */
export const odRequestCancellation =
  (deps: OrdersDeps): OpHandler<typeof ORDER_OPS.odRequestCancellation> =>
  (req) =>
    handshakeStep(deps, req, 'requestCancellation', requestInput(req.body));
export const odAcceptCancellation =
  (deps: OrdersDeps): OpHandler<typeof ORDER_OPS.odAcceptCancellation> =>
  (req) =>
    handshakeStep(deps, req, 'acceptCancellation', {});
export const odDenyCancellation =
  (deps: OrdersDeps): OpHandler<typeof ORDER_OPS.odDenyCancellation> =>
  (req) =>
    handshakeStep(deps, req, 'denyCancellation', denialInput(req.body));

/**
 * `handshake`: the three steps in one op (`step` in params), as the previous release's gateway
 * calls it during a rollout; remove in the next release.
 */
export function publicHandshake(deps: OrdersDeps): OpHandler<typeof ORDER_OPS.handshake> {
  return async (req) => {
    const { step } = req.params;
    const fail = (f: Record<string, string[]>): never => {
      throw new HttpException(errors.validation(f, req.traceId));
    };
    const input =
      step === 'requestCancellation'
        ? requestInput(parse(odCancellationRequestSchema, req.body, fail))
        : step === 'denyCancellation'
          ? denialInput(parse(odCancellationDenialSchema, req.body, fail))
          : {};
    return handshakeStep(deps, req, step, input);
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
