import type { EventType, OrderAction, OrderType, Situation } from '@od/contracts';

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
 * - Panel/customer cancellation "from any state": any non-final state including PENDING_PAYMENT
 *   (which cancels silently: the order never existed for integrators, so no CANCELLED event).
 *   On DONE it answers 422 like requestCancellation: SPEC rule 4 says DONE cannot be cancelled,
 *   and a delivered order being cancelled by the panel would contradict the CONCLUDED event the
 *   integrator already received. On CANCELLED: already_applied.
 * - PENDING_PAYMENT: only `pay` (-> PENDING, CREATED) and `cancel` act on it; every action is 422
 *   (the public API never reaches this far: such orders answer 404 before).
 */
export type Trigger = OrderAction | 'pay' | 'cancel';

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
  /** `event` undefined = a move without event (backtracking, silent cancellation of an unpaid order) */
  | { kind: 'move'; to: Situation; event?: EventType; backtrack: boolean };

const invalid: Decision = { kind: 'invalid' };

export function decide(type: OrderType, from: Situation, trigger: Trigger): Decision {
  if (trigger === 'pay') {
    if (from === 'PENDING_PAYMENT')
      return { kind: 'move', to: 'PENDING', event: 'CREATED', backtrack: false };
    if (from === 'CANCELLED') return invalid;
    // already paid: the order is past PENDING_PAYMENT
    return { kind: 'already_applied', to: from };
  }
  if (trigger === 'cancel' || trigger === 'requestCancellation') {
    if (from === 'CANCELLED') return { kind: 'already_applied', to: 'CANCELLED' };
    if (from === 'DONE') return invalid;
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
