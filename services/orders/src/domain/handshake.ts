import type { ActionResponse } from '@od/contracts';
import { errors, HttpException } from '@od/errors';
import type { CancellationRequest, LockedOrder } from '../db/orders.ts';
import type { Plan } from './plans.ts';
import { CANCELLATION_CODES, decide, type HandshakeTrigger } from './state-machine.ts';

/**
 * The plan of an Open Delivery cancellation-handshake step (state-machine.ts, HANDSHAKE). What the
 * events carry (EventMetadataCancel: `reason` and `code` required):
 * - CANCELLATION_REQUESTED: the point of sale's reason and code;
 * - CANCELLATION_REQUEST_DENIED: the platform's reason, the request's code;
 * - ORDER_CANCELLATION_REQUEST: CONSUMER_CANCELLATION_REQUESTED (customer) or
 *   OTHER_CANCELLATION_REASON (platform), with its reason;
 * - CANCELLED_DENIED: the point of sale's reason, the request's code (the standard's denial codes
 *   DISH_ALREADY_DONE / OUT_FOR_DELIVERY are not in the event's code enumeration: kept in history);
 * - CANCELLED: the request's reason; the code is one of SPEC's two (CONSUMER_CANCELLATION_REQUESTED
 *   or OTHER_CANCELLATION_REASON) because SPEC credentials receive this event too.
 */
export interface HandshakeInput {
  /** the step's own reason (request or denial); a default is used when absent */
  reason?: string;
  /** the code of a new request (event metadata enumeration) */
  code?: string;
  /** recorded in history as is (e.g. the standard's mode, denial code, items) */
  detail?: unknown;
}

const DEFAULT_REASON: Record<HandshakeTrigger, string> = {
  merchantRequestsCancellation: 'Pedido de cancelamento do estabelecimento.',
  platformAcceptsCancellation: 'Pedido de cancelamento aceito pela plataforma.',
  platformDeniesCancellation: 'Pedido de cancelamento negado pela plataforma.',
  platformRequestsCancellation: 'Pedido de cancelamento da plataforma.',
  merchantAcceptsCancellation: 'Pedido de cancelamento aceito pelo estabelecimento.',
  merchantDeniesCancellation: 'Pedido de cancelamento negado pelo estabelecimento.',
};

/** The code a CANCELLED event carries after the request of `party` was accepted. */
const cancelledCode = (r: CancellationRequest) =>
  r.party === 'MERCHANT' || r.code !== CANCELLATION_CODES.customer
    ? CANCELLATION_CODES.merchant
    : CANCELLATION_CODES.customer;

export function handshakePlan(o: LockedOrder, trigger: HandshakeTrigger, input: HandshakeInput): Plan {
  const open = o.cancellationRequest;
  const pending = open?.party ?? 'NONE';
  const d = decide(o.type, o.situation, trigger, pending);
  const reply = (body: ActionResponse) => () => ({ status: 202, body });
  if (d.kind === 'invalid')
    throw new HttpException(errors.cancellationStepRefused(trigger, o.situation, pending));
  if (d.kind === 'already_applied') return { answer: reply({ status: 'already_applied', situation: d.to }) };
  const reason = input.reason?.trim() ? input.reason : DEFAULT_REASON[trigger];
  let metadata: { reason: string; code: string };
  let request: CancellationRequest | null = null;
  if (d.event === 'CANCELLATION_REQUESTED' || d.event === 'ORDER_CANCELLATION_REQUEST') {
    metadata = { reason, code: input.code ?? CANCELLATION_CODES.merchant };
    request = {
      party: d.event === 'CANCELLATION_REQUESTED' ? 'MERCHANT' : 'ORDERING_APP',
      ...metadata,
      requestedAt: new Date().toISOString(),
    };
  } else if (!open) {
    // unreachable: the table only answers or cancels an open request
    throw new Error(`handshake ${trigger} without an open request`);
  } else if (d.event === 'CANCELLED') {
    metadata = { reason: open.reason, code: cancelledCode(open) };
  } else {
    metadata = { reason, code: open.code };
  }
  return {
    change: {
      to: d.to,
      event: { type: d.event as NonNullable<typeof d.event>, metadata },
      history: { trigger, detail: { ...metadata, ...(input.detail ? { step: input.detail } : {}) } },
      cancellationRequest: request,
    },
    answer: reply({ status: 'accepted', situation: d.to }),
  };
}
