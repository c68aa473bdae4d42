import type { EventType, OrderAction, OrderType, PendingCancellation, Situation } from '@od/contracts';

/**
 * The order state machine (SPEC "States and transitions" + DESIGN decisions). Pure: given the
 * order's type, its situation and a trigger, says what happens. No I/O.
 *
 * Triggers: the seven public/panel actions, plus `pay` (online payment confirmed) and
 * `cancel` (merchant panel or customer cancellation, `by` MERCHANT | CUSTOMER).
 *
 * Decisions recorded here:
 * - Rank of the "forward" states: PENDING < ACCEPTED < PREPARING < READY < DELIVERY < DONE.
 *   An action targets one state (confirm -> ACCEPTED, startPreparation -> PREPARING,
 *   readyForPickup -> READY, dispatch -> DELIVERY, delivered | pickedUp -> DONE).
 * - From PENDING only `confirm` (and cancellation) is allowed; skipping starts at ACCEPTED
 *   (SPEC's table lists skipping rows from ACCEPTED, PREPARING and READY only).
 * - Backtracking: from ACCEPTED and later non-final states to an earlier state via its action;
 *   never out of DONE/CANCELLED, never to PENDING; emits no event (rule 7).
 * - Already in the requested state: `already_applied` (rule 1), no event. `requestCancellation`
 *   on CANCELLED and `pickedUp`/`delivered` on DONE are already_applied.
 * - `dispatch` on an INDOOR order: always 422. On TAKEOUT it moves to DELIVERY emitting
 *   READY_FOR_PICKUP, never DISPATCHED (rule 2).
 * - `pickedUp`: from ACCEPTED, PREPARING, READY, DELIVERY -> DONE (CONCLUDED); 422 from PENDING.
 * - Panel/customer cancellation "from any state" (SPEC's table): every state but CANCELLED, DONE
 *   included (a refund after delivery: the integrator gets CANCELLED after CONCLUDED), and
 *   PENDING_PAYMENT (which cancels silently: the order never existed for integrators, so no
 *   CANCELLED event). On CANCELLED: already_applied. SPEC rule 4 (DONE cannot be cancelled) is
 *   about the API's `requestCancellation`: 422 on DONE. The platform's cancellation of an order
 *   nobody confirmed in time (`expire`) acts on PENDING only: on any other state it is a no-op.
 * - PENDING_PAYMENT: only `pay` (-> PENDING, CREATED) and `cancel` act on it; every action is 422
 *   (the public API never reaches this far: such orders answer 404 before).
 * - The Open Delivery cancellation handshake (HANDSHAKE below) is a second, orthogonal dimension:
 *   the pending request (`PendingCancellation`). A move into a final state closes any request.
 */
export type LifecycleTrigger = OrderAction | 'pay' | 'cancel' | 'expire';

/**
 * The Open Delivery 1.4.0 cancellation handshake: one party asks, the other accepts or denies.
 * - `merchantRequestsCancellation`: an OPEN_DELIVERY point of sale's `requestCancellation`
 *   (CANCELLATION_REQUESTED); the ordering application, i.e. the platform operator through the admin
 *   API, decides: `platformAcceptsCancellation` (CANCELLED) or `platformDeniesCancellation`
 *   (CANCELLATION_REQUEST_DENIED).
 * - `platformRequestsCancellation`: the customer or the platform asks through the admin API
 *   (ORDER_CANCELLATION_REQUEST); the point of sale decides with `acceptCancellation`
 *   (`merchantAcceptsCancellation`: CANCELLED) or `denyCancellation` (`merchantDeniesCancellation`:
 *   CANCELLED_DENIED).
 * SPEC's `requestCancellation` and the panel's `cancel` stay immediate (LifecycleTrigger).
 */
export type HandshakeTrigger =
  | 'merchantRequestsCancellation'
  | 'platformAcceptsCancellation'
  | 'platformDeniesCancellation'
  | 'platformRequestsCancellation'
  | 'merchantAcceptsCancellation'
  | 'merchantDeniesCancellation';

export type Trigger = LifecycleTrigger | HandshakeTrigger;

export const FINAL: ReadonlySet<Situation> = new Set(['DONE', 'CANCELLED']);

const RANK: Partial<Record<Situation, number>> = {
  PENDING: 0,
  ACCEPTED: 1,
  PREPARING: 2,
  READY: 3,
  DELIVERY: 4,
  DONE: 5,
};

const TARGET: Record<Exclude<OrderAction, 'requestCancellation'>, Situation> = {
  confirm: 'ACCEPTED',
  startPreparation: 'PREPARING',
  readyForPickup: 'READY',
  dispatch: 'DELIVERY',
  delivered: 'DONE',
  pickedUp: 'DONE',
};

const ENTRY_EVENT: Partial<Record<Situation, EventType>> = {
  ACCEPTED: 'CONFIRMED',
  PREPARING: 'PREPARING',
  READY: 'READY_FOR_PICKUP',
  DELIVERY: 'DISPATCHED',
  DONE: 'CONCLUDED',
};

export type Decision =
  | { kind: 'invalid' }
  | { kind: 'already_applied'; to: Situation }
  /**
   * `event` undefined = a move without event (backtracking, silent cancellation of an unpaid order);
   * `pending` set = the cancellation request this move leaves (a final state closes any: NONE)
   */
  | { kind: 'move'; to: Situation; event?: EventType; backtrack: boolean; pending?: PendingCancellation }
  /** a handshake step that opens or closes a cancellation request without moving the order */
  | { kind: 'request'; to: Situation; event: EventType; pending: PendingCancellation };

const invalid: Decision = { kind: 'invalid' };

type HandshakeRow =
  | 'invalid'
  | 'already_applied'
  /** `cancel`: the step cancels the order (CANCELLED); otherwise the order stays where it is */
  | { event: EventType; pending: PendingCancellation; cancel?: true };

/** The handshake on a live order (any situation but PENDING_PAYMENT, DONE, CANCELLED), by pending request. */
const HANDSHAKE: Record<HandshakeTrigger, Record<PendingCancellation, HandshakeRow>> = {
  merchantRequestsCancellation: {
    NONE: { event: 'CANCELLATION_REQUESTED', pending: 'MERCHANT' },
    MERCHANT: 'already_applied',
    // the customer's request waits for the point of sale's answer: acceptCancellation cancels
    ORDERING_APP: 'invalid',
  },
  platformAcceptsCancellation: {
    NONE: 'invalid',
    MERCHANT: { event: 'CANCELLED', pending: 'NONE', cancel: true },
    ORDERING_APP: 'invalid',
  },
  platformDeniesCancellation: {
    NONE: 'invalid',
    MERCHANT: { event: 'CANCELLATION_REQUEST_DENIED', pending: 'NONE' },
    ORDERING_APP: 'invalid',
  },
  platformRequestsCancellation: {
    NONE: { event: 'ORDER_CANCELLATION_REQUEST', pending: 'ORDERING_APP' },
    // the merchant already asks: the platform answers it (accept) instead of asking back
    MERCHANT: 'invalid',
    ORDERING_APP: 'already_applied',
  },
  merchantAcceptsCancellation: {
    NONE: 'invalid',
    MERCHANT: 'invalid',
    ORDERING_APP: { event: 'CANCELLED', pending: 'NONE', cancel: true },
  },
  merchantDeniesCancellation: {
    NONE: 'invalid',
    MERCHANT: 'invalid',
    ORDERING_APP: { event: 'CANCELLED_DENIED', pending: 'NONE' },
  },
};

/**
 * The handshake on a CANCELLED order: asking again or accepting again is already_applied (the
 * outcome holds; a retry is safe); denying is 422. On DONE and PENDING_PAYMENT every step is 422.
 */
const HANDSHAKE_ON_CANCELLED: Record<HandshakeTrigger, 'invalid' | 'already_applied'> = {
  merchantRequestsCancellation: 'already_applied',
  platformAcceptsCancellation: 'already_applied',
  platformDeniesCancellation: 'invalid',
  platformRequestsCancellation: 'already_applied',
  merchantAcceptsCancellation: 'already_applied',
  merchantDeniesCancellation: 'invalid',
};

const HANDSHAKE_TRIGGERS = new Set<string>(Object.keys(HANDSHAKE));
export const isHandshakeTrigger = (t: Trigger): t is HandshakeTrigger => HANDSHAKE_TRIGGERS.has(t);

function handshake(from: Situation, trigger: HandshakeTrigger, pending: PendingCancellation): Decision {
  if (from === 'CANCELLED')
    return HANDSHAKE_ON_CANCELLED[trigger] === 'invalid' ? invalid : { kind: 'already_applied', to: from };
  if (FINAL.has(from) || from === 'PENDING_PAYMENT') return invalid;
  const row = HANDSHAKE[trigger][pending];
  if (row === 'invalid') return invalid;
  if (row === 'already_applied') return { kind: 'already_applied', to: from };
  if (row.cancel)
    return { kind: 'move', to: 'CANCELLED', event: row.event, backtrack: false, pending: 'NONE' };
  return { kind: 'request', to: from, event: row.event, pending: row.pending };
}

/**
 * What `trigger` does to an order of `type` in `from` with `pending` cancellation request. Pure.
 */
export function decide(
  type: OrderType,
  from: Situation,
  trigger: Trigger,
  pending: PendingCancellation = 'NONE',
): Decision {
  if (isHandshakeTrigger(trigger)) return handshake(from, trigger, pending);
  const d = lifecycle(type, from, trigger);
  // a final state closes any open cancellation request
  if (d.kind === 'move' && FINAL.has(d.to) && pending !== 'NONE') return { ...d, pending: 'NONE' };
  return d;
}

function lifecycle(type: OrderType, from: Situation, trigger: LifecycleTrigger): Decision {
  if (trigger === 'pay') {
    if (from === 'PENDING_PAYMENT')
      return { kind: 'move', to: 'PENDING', event: 'CREATED', backtrack: false };
    if (from === 'CANCELLED') return invalid;
    // already paid: the order is past PENDING_PAYMENT
    return { kind: 'already_applied', to: from };
  }
  if (trigger === 'expire')
    return from === 'PENDING'
      ? { kind: 'move', to: 'CANCELLED', event: 'CANCELLED', backtrack: false }
      : { kind: 'already_applied', to: from };
  if (trigger === 'cancel' || trigger === 'requestCancellation') {
    if (from === 'CANCELLED') return { kind: 'already_applied', to: 'CANCELLED' };
    if (from === 'DONE' && trigger === 'requestCancellation') return invalid;
    if (from === 'PENDING_PAYMENT') {
      if (trigger === 'requestCancellation') return invalid;
      return { kind: 'move', to: 'CANCELLED', backtrack: false };
    }
    return { kind: 'move', to: 'CANCELLED', event: 'CANCELLED', backtrack: false };
  }
  if (from === 'PENDING_PAYMENT' || from === 'CANCELLED') return invalid;
  if (trigger === 'dispatch' && type === 'INDOOR') return invalid;
  const to = TARGET[trigger];
  const fromRank = RANK[from] as number;
  const toRank = RANK[to] as number;
  if (from === to) return { kind: 'already_applied', to };
  if (from === 'DONE') return invalid;
  if (from === 'PENDING') {
    return trigger === 'confirm' ? { kind: 'move', to, event: 'CONFIRMED', backtrack: false } : invalid;
  }
  if (toRank < fromRank) return { kind: 'move', to, backtrack: true };
  const event: EventType =
    trigger === 'dispatch' && type === 'TAKEOUT' ? 'READY_FOR_PICKUP' : (ENTRY_EVENT[to] as EventType);
  return { kind: 'move', to, event, backtrack: false };
}

/** Cancellation codes of the CANCELLED event's metadata. */
export const CANCELLATION_CODES = {
  merchant: 'OTHER_CANCELLATION_REASON',
  customer: 'CONSUMER_CANCELLATION_REQUESTED',
} as const;

/**
 * Open Delivery `tracking` (delivery updates from a point of sale that delivers itself): accepted for
 * DELIVERY orders still under way (confirmed, not DONE or CANCELLED); recorded in history, no event.
 */
export function acceptsTracking(type: OrderType, from: Situation): boolean {
  return type === 'DELIVERY' && !FINAL.has(from) && from !== 'PENDING_PAYMENT' && from !== 'PENDING';
}

/** The order in which the panel offers actions: the natural next step first, cancellation last. */
const OFFER_ORDER: Record<'DELIVERY' | 'OTHER', readonly OrderAction[]> = {
  DELIVERY: [
    'confirm',
    'startPreparation',
    'readyForPickup',
    'dispatch',
    'delivered',
    'pickedUp',
    'requestCancellation',
  ],
  OTHER: [
    'confirm',
    'startPreparation',
    'readyForPickup',
    'pickedUp',
    'dispatch',
    'delivered',
    'requestCancellation',
  ],
};

/**
 * The panel actions allowed now (what a card offers): every action the state machine moves forward
 * (skipping included; backtracking and already-applied steps are not offered), the natural next
 * step first. Pure.
 */
export function nextActions(type: OrderType, from: Situation): OrderAction[] {
  return OFFER_ORDER[type === 'DELIVERY' ? 'DELIVERY' : 'OTHER'].filter((a) => {
    const d = decide(type, from, a);
    return d.kind === 'move' && !d.backtrack;
  });
}
