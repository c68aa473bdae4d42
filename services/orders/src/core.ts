import type { NatsConnection } from '@nats-io/transport-node';
import { type RpcClient, RpcUnavailableError } from '@od/bus';
import { type ActionResponse, INTERNAL_OPS, isGuid, type MerchantSnapshot, type Names } from '@od/contracts';
import type { Pool } from '@od/db';
import { errors, HttpException } from '@od/errors';
import type { LockedOrder } from './db/orders.ts';
import { decide, type LifecycleTrigger } from './domain/state-machine.ts';
import type { Plan } from './write.ts';

/** What every handler needs. `wake` nudges the outbox relay right after a commit. */
export interface OrdersDeps {
  pool: Pool;
  nc: NatsConnection;
  names: Names;
  /** signed calls to other services (catalog's merchant snapshot) */
  rpc: RpcClient;
  baseUrl: string;
  wake(): void;
  /** true when this process is the relay leader: in-process wake suffices, no NOTIFY needed */
  leads(): boolean;
  /** test hook: runs after a commit, before the reply is sent (simulates a crash in between) */
  afterCommit?: () => Promise<void>;
}

export const notFound = () => new HttpException(errors.orderNotFound());

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

/** The store facts at intake (catalog RPC). 404 -> merchant_not_found; catalog down -> 503. */
export async function merchantSnapshot(
  deps: OrdersDeps,
  merchantId: string,
  traceId: string,
): Promise<MerchantSnapshot> {
  const notFoundMerchant = () =>
    new HttpException(errors.admin(404, 'merchant_not_found', 'Loja não encontrada.'));
  if (!isGuid(merchantId)) throw notFoundMerchant();
  try {
    const r = await deps.rpc.callJson(
      INTERNAL_OPS.merchantSnapshot,
      { body: { merchantId } },
      { traceId, timeoutMs: 5000 },
    );
    if (r.status === 404) throw notFoundMerchant();
    if (r.status !== 200) throw new HttpException(errors.unavailable(traceId));
    return r.body;
  } catch (e) {
    if (e instanceof RpcUnavailableError) throw new HttpException(errors.unavailable(traceId));
    throw e;
  }
}
