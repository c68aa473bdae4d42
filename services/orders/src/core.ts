import { randomUUID } from 'node:crypto';
import type { NatsConnection } from '@nats-io/transport-node';
import { callRpcJson, RpcUnavailableError } from '@od/bus';
import {
  type ActionResponse,
  type Actor,
  type EventType,
  INTERNAL_OPS,
  isGuid,
  type MerchantSnapshot,
  type Names,
} from '@od/contracts';
import type { Pool } from '@od/db';
import { errors, HttpException, isHttpException } from '@od/errors';
import {
  appendHistory,
  beginAndLock,
  insertOutbox,
  type LockedOrder,
  lockOrder,
  writeTransition,
} from './db/orders.ts';
import { buildEventMessage } from './domain/envelope.ts';
import { decide, type Trigger } from './domain/state-machine.ts';

/** What every handler needs. `wake` nudges the outbox relay right after a commit. */
export interface OrdersDeps {
  pool: Pool;
  nc: NatsConnection;
  names: Names;
  baseUrl: string;
  wake(): void;
  /** true when this process is the relay leader: in-process wake suffices, no NOTIFY needed */
  leads(): boolean;
}

export const notFound = () => new HttpException(errors.orderNotFound());

/**
 * Loads and locks an order for a change. `merchantId` (public routes) hides other stores' orders;
 * `hidePendingPayment` hides unpaid orders from integrators (they do not exist for them).
 */
export async function lockVisible(
  c: Parameters<typeof lockOrder>[0],
  orderId: string,
  scope: { merchantId?: string; hidePendingPayment: boolean },
): Promise<LockedOrder> {
  if (!isGuid(orderId)) throw notFound();
  const o = await lockOrder(c, orderId);
  if (!o) throw notFound();
  if (scope.merchantId !== undefined && o.merchantId !== scope.merchantId) throw notFound();
  if (scope.hidePendingPayment && o.situation === 'PENDING_PAYMENT') throw notFound();
  return o;
}

export interface TriggerInput {
  orderId: string;
  trigger: Trigger;
  actor: Actor;
  merchantId?: string;
  hidePendingPayment: boolean;
  /** CANCELLED metadata */
  cancellation?: { reason: string; code: string };
}

/**
 * One transition in one transaction: situation change, history row and (when the move emits one)
 * the outbox row. Answers the 202 action body; throws 404/422 as catalogue errors.
 */
export async function applyTrigger(deps: OrdersDeps, t: TriggerInput): Promise<ActionResponse> {
  if (!isGuid(t.orderId)) throw notFound();
  const c = await deps.pool.connect();
  let emitted = false;
  let broken: Error | undefined;
  let res: ActionResponse;
  try {
    const o = await beginAndLock(c, t.orderId);
    const done = async (e: HttpException) => {
      await c.query('ROLLBACK');
      throw e;
    };
    if (!o) return await done(notFound());
    if (t.merchantId !== undefined && o.merchantId !== t.merchantId) return await done(notFound());
    if (t.hidePendingPayment && o.situation === 'PENDING_PAYMENT') return await done(notFound());
    const d = decide(o.type, o.situation, t.trigger);
    if (d.kind === 'invalid')
      return await done(new HttpException(errors.invalidTransition(o.situation, t.trigger)));
    if (d.kind === 'already_applied') {
      await c.query('ROLLBACK');
      return { status: 'already_applied', situation: d.to };
    }
    const now = new Date().toISOString();
    const message = d.event
      ? buildEventMessage({
          eventId: randomUUID(),
          eventType: d.event,
          orderId: o.id,
          merchantId: o.merchantId,
          channel: o.channel,
          orderSeq: o.eventSeq + 1,
          baseUrl: deps.baseUrl,
          createdAt: now,
          actor: t.actor,
          metadata: d.event === 'CANCELLED' ? t.cancellation : undefined,
        })
      : null;
    await writeTransition(c, {
      orderId: o.id,
      to: d.to,
      from: o.situation,
      trigger: t.trigger,
      actor: t.actor,
      now,
      detail:
        t.cancellation && d.to === 'CANCELLED'
          ? t.cancellation
          : d.backtrack
            ? { backtrack: true }
            : undefined,
      message,
      notify: !deps.leads(),
    });
    await c.query('COMMIT');
    emitted = message !== null;
    res = { status: 'accepted', situation: d.to };
  } catch (e) {
    if (!isHttpException(e)) {
      broken = e as Error;
      await c.query('ROLLBACK').catch(() => {});
    }
    throw e;
  } finally {
    c.release(broken);
  }
  if (emitted) deps.wake();
  return res;
}

/** Emits an event that does not change the situation (MODIFIED, courier), inside the caller's tx. */
export async function emitInTx(
  deps: OrdersDeps,
  c: Parameters<typeof lockOrder>[0],
  o: LockedOrder,
  e: { eventType: EventType; actor: Actor; trigger: string; metadata?: Record<string, unknown>; now: string },
): Promise<string> {
  const { rows } = await c.query<{ s: number }>(
    'UPDATE orders SET event_seq = event_seq + 1, updated_at = $2 WHERE id = $1 RETURNING event_seq AS s',
    [o.id, e.now],
  );
  const eventId = randomUUID();
  await insertOutbox(
    c,
    buildEventMessage({
      eventId,
      eventType: e.eventType,
      orderId: o.id,
      merchantId: o.merchantId,
      channel: o.channel,
      orderSeq: rows[0].s,
      baseUrl: deps.baseUrl,
      createdAt: e.now,
      actor: e.actor,
      metadata: e.metadata,
    }),
    !deps.leads(),
  );
  await appendHistory(c, {
    orderId: o.id,
    trigger: e.trigger,
    from: o.situation,
    to: o.situation,
    actor: e.actor,
    eventId,
    eventType: e.eventType,
    detail: e.metadata,
    at: e.now,
  });
  return eventId;
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
    const r = await callRpcJson<MerchantSnapshot>(
      deps.nc,
      deps.names.rpc('catalog', INTERNAL_OPS.merchantSnapshot),
      { traceId, body: { merchantId } },
      5000,
    );
    if (r.status === 404) throw notFoundMerchant();
    if (r.status !== 200) throw new HttpException(errors.unavailable(traceId));
    return r.body;
  } catch (e) {
    if (e instanceof RpcUnavailableError) throw new HttpException(errors.unavailable(traceId));
    throw e;
  }
}
