import type { ActionResponse, EventType, Order, OrderChannel, RpcResult, Situation } from '@od/contracts';
import { errors, HttpException } from '@od/errors';
import type { CancellationRequest, LockedOrder } from '../db/orders.ts';
import { decide, type LifecycleTrigger } from './state-machine.ts';

// What a trigger asks `writeOrder` (write.ts) to do, and the plan of the state machine's triggers.

/** What one trigger changes. Omitted parts stay as they are. */
export interface Change {
  /** a new order (intake): inserted instead of updated; PENDING from then on for at most `confirmTimeoutSeconds` */
  create?: {
    order: Order;
    situation: Situation;
    channel: OrderChannel;
    confirmTimeoutSeconds: number | null;
  };
  to?: Situation;
  /** the re-rendered public Order (edit) */
  document?: Order;
  event?: { type: EventType; metadata?: Record<string, unknown> };
  /** `keepLast`: after this entry, only the newest `keepLast` entries of its trigger stay */
  history: { trigger: string; detail?: unknown; keepLast?: number };
  /** the Open Delivery cancellation request after the change (undefined = unchanged, null = none) */
  cancellationRequest?: CancellationRequest | null;
}

export interface Plan {
  /** undefined: nothing to write (e.g. already_applied) */
  change?: Change;
  answer(written: { eventId?: string }): RpcResult;
}

/**
 * The plan of a state-machine trigger (actions, panel, payment, cancellations): 202 with the
 * action body; 422 invalid_transition; already_applied writes nothing.
 */
export function transitionPlan(
  o: LockedOrder,
  trigger: LifecycleTrigger,
  cancellation?: { reason: string; code: string },
): Plan {
  const d = decide(o.type, o.situation, trigger, o.cancellationRequest?.party ?? 'NONE');
  if (d.kind === 'invalid') throw new HttpException(errors.invalidTransition(o.situation, trigger));
  const reply = (body: ActionResponse) => () => ({ status: 202, body });
  if (d.kind === 'already_applied') return { answer: reply({ status: 'already_applied', situation: d.to }) };
  return {
    change: {
      // a final state closes an open Open Delivery cancellation request
      cancellationRequest: d.kind === 'move' && d.pending === 'NONE' ? null : undefined,
      to: d.to,
      event: d.event && {
        type: d.event,
        metadata: d.event === 'CANCELLED' ? cancellation : undefined,
      },
      history: {
        trigger,
        detail:
          cancellation && d.to === 'CANCELLED'
            ? cancellation
            : d.kind === 'move' && d.backtrack
              ? { backtrack: true }
              : undefined,
      },
    },
    answer: reply({ status: 'accepted', situation: d.to }),
  };
}
