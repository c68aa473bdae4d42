import { randomUUID } from 'node:crypto';
import {
  type Actor,
  IDEMPOTENCY_RPC_HEADERS,
  IDEMPOTENT_REPLAYED_HEADER,
  isIdempotencyKey,
  type RpcRequest,
  type RpcResult,
  type Situation,
} from '@od/contracts';
import type { PoolClient } from '@od/db';
import { errors, HttpException, isHttpException } from '@od/errors';
import { findIdem, type IdemKey, type IdemRecord, recordIdem } from './db/idempotency.ts';
import {
  beginAndLock,
  type ChangeRow,
  type LockedOrder,
  type OrderScope,
  trimHistory,
  type Written,
  writeChange,
} from './db/orders.ts';
import { notFound, type OrdersDeps } from './deps.ts';
import { buildEventMessage } from './domain/envelope.ts';
import { byteLength, MAX_EVENT_BYTES, MAX_ORDER_DOCUMENT_BYTES } from './domain/limits.ts';
import type { Change, Plan } from './domain/plans.ts';
import type { OutboxRow } from './outbox/relay.ts';

/**
 * THE write path of the orders service: every trigger (public and panel actions, payment,
 * cancellations, edit, courier, intake) goes through `writeOrder`. In one transaction it locks the
 * order (store and visibility checked by the locking query), replays a recorded Idempotency-Key
 * answer, asks the trigger's `plan` what to change, writes the order row, its history row and its
 * event's outbox row in one statement, records the Idempotency-Key answer, and commits; whatever
 * throws rolls back. A refused request (4xx) is an answer too: recorded with its key, nothing else
 * written. State rules stay in domain/state-machine.ts; `plan` only reads.
 */

interface Common {
  actor: Actor;
  idem?: IdemKey;
}
/** A change of an existing order: `plan` sees it locked. */
export interface ExistingWrite extends Common {
  scope: OrderScope;
  plan(o: LockedOrder, c: PoolClient): Plan | Promise<Plan>;
}
/** A new order (intake): `plan` returns `change.create`. */
export interface NewWrite extends Common {
  scope: 'new';
  plan(c: PoolClient): Plan | Promise<Plan>;
}
type WriteRequest = ExistingWrite | NewWrite;

interface Outcome {
  answer: RpcResult;
  /** an outbox row was committed: wake the relay, or hand it over when it may go out at once */
  emitted?: OutboxRow | 'wake';
  committed: boolean;
}

export function writeOrder(deps: OrdersDeps, w: ExistingWrite): Promise<RpcResult>;
export function writeOrder(deps: OrdersDeps, w: NewWrite): Promise<RpcResult>;
export async function writeOrder(deps: OrdersDeps, w: WriteRequest): Promise<RpcResult> {
  const c = await deps.pool.connect();
  let broken: Error | undefined;
  let out: Outcome;
  try {
    out = await inTransaction(deps, c, w);
  } catch (e) {
    await c.query('ROLLBACK').catch((err: Error) => {
      broken = err;
    });
    throw e;
  } finally {
    c.release(broken);
  }
  if (out.emitted === 'wake') deps.wake();
  else if (out.emitted) deps.publishNow(out.emitted);
  return out.answer;
}

async function inTransaction(deps: OrdersDeps, c: PoolClient, w: WriteRequest): Promise<Outcome> {
  let locked: LockedOrder | undefined;
  if (w.scope === 'new') await c.query('BEGIN');
  else locked = await beginAndLock(c, w.scope);
  if (w.idem) {
    const prior = await findIdem(c, w.idem);
    if (prior) {
      await c.query('ROLLBACK');
      return { answer: replay(prior, w.idem), committed: false };
    }
  }
  let plan: Plan;
  let row: ChangeRow | undefined;
  try {
    if (w.scope === 'new') plan = await w.plan(c);
    else if (!locked) throw notFound();
    else plan = await w.plan(locked, c);
    row = plan.change && toRow(deps, locked, plan.change, w.actor);
  } catch (e) {
    if (!isHttpException(e) || e.http.status >= 500) throw e;
    const refused = e.http;
    plan = { answer: () => refused };
    row = undefined;
  }
  const written = row && (await writeChange(c, row));
  const keepLast = plan.change?.history.keepLast;
  if (row && keepLast !== undefined) await trimHistory(c, row.orderId, row.trigger, keepLast);
  let answer = plan.answer({ eventId: row?.event?.eventId });
  if (w.idem && answer.status < 500) {
    answer = { ...answer, body: serialize(answer.body) };
    const first = await recordIdem(c, w.idem, {
      status: answer.status,
      headers: answer.headers ?? {},
      body: answer.body as string,
    });
    if (!first) {
      // a concurrent request with the same key committed first (we waited for it): replay it
      await c.query('ROLLBACK');
      const winner = await findIdem(c, w.idem);
      if (!winner) throw new Error('idempotency record vanished');
      return { answer: replay(winner, w.idem), committed: false };
    }
  } else if (!row) {
    await c.query('ROLLBACK');
    return { answer, committed: false };
  }
  await c.query('COMMIT');
  return { answer, emitted: row && written && emitted(row, written), committed: true };
}

/**
 * The committed event as the relay's row when it may be published at once: this process leads the
 * relay (no NOTIFY was sent) and no earlier event of the order is unpublished. Otherwise a wake.
 */
function emitted(row: ChangeRow, w: Written): OutboxRow | 'wake' | undefined {
  const e = row.event;
  if (!e || w.outboxId === null) return undefined;
  if (row.notify || !w.alone) return 'wake';
  return {
    id: w.outboxId,
    order_id: row.orderId,
    merchant_id: e.merchantId,
    event_id: e.eventId,
    message: e.message,
    created_at: row.now,
    traceparent: w.traceparent,
  };
}

function replay(r: IdemRecord, k: IdemKey): RpcResult {
  if (r.fingerprint !== k.fingerprint) throw new HttpException(errors.idempotencyKeyReuse());
  return { status: r.status, headers: { ...r.headers, [IDEMPOTENT_REPLAYED_HEADER]: 'true' }, body: r.body };
}

function serialize(body: unknown): string {
  if (body === undefined) return '';
  if (typeof body === 'string') return body;
  if (body instanceof Uint8Array) return Buffer.from(body).toString('utf8');
  return JSON.stringify(body);
}

const tooLarge = (what: string, limit: number) =>
  new HttpException(errors.adminPayloadTooLarge(`${what} excede o limite de ${limit / 1024} KiB.`));

/** The change as rows: event message built and serialized, sizes checked (413 before any write). */
function toRow(deps: OrdersDeps, o: LockedOrder | undefined, ch: Change, actor: Actor): ChangeRow {
  const create = ch.create;
  const t = create
    ? { id: create.order.id, merchantId: create.order.merchant.id, channel: create.channel, eventSeq: 0 }
    : o;
  if (!t) throw new Error('a change of an existing order without its lock');
  const now = create ? create.order.createdAt : new Date().toISOString();
  const rendered = create?.order ?? ch.document;
  const document = rendered ? JSON.stringify(rendered) : null;
  if (document && byteLength(document) > MAX_ORDER_DOCUMENT_BYTES)
    throw tooLarge('O pedido', MAX_ORDER_DOCUMENT_BYTES);
  let event: ChangeRow['event'] = null;
  if (ch.event) {
    const eventId = randomUUID();
    const orderSeq = t.eventSeq + 1;
    const message = JSON.stringify(
      buildEventMessage({
        eventId,
        eventType: ch.event.type,
        orderId: t.id,
        merchantId: t.merchantId,
        channel: t.channel,
        orderSeq,
        baseUrl: deps.baseUrl,
        createdAt: now,
        actor,
        metadata: ch.event.metadata,
      }),
    );
    if (byteLength(message) > MAX_EVENT_BYTES) throw tooLarge('O evento', MAX_EVENT_BYTES);
    event = { eventId, merchantId: t.merchantId, orderSeq, eventType: ch.event.type, message };
  }
  const from = o?.situation ?? null;
  return {
    orderId: t.id,
    now,
    create: create && {
      merchantId: t.merchantId,
      type: create.order.type,
      channel: t.channel,
      confirmTimeoutSeconds: create.confirmTimeoutSeconds,
    },
    from,
    to: create?.situation ?? ch.to ?? (from as Situation),
    document,
    trigger: ch.history.trigger,
    actor,
    detail: ch.history.detail === undefined ? null : JSON.stringify(ch.history.detail),
    event,
    notify: !deps.leads(),
    cancellationRequest: ch.cancellationRequest,
  };
}

/**
 * The Idempotency-Key of an RPC request (forwarded by the gateway as headers with its fingerprint
 * of the request, gateway/src/idempotency), scoped per credential on public routes and to `admin`
 * on the admin API. Undefined without a key.
 */
export function idemOf(req: RpcRequest): IdemKey | undefined {
  const key = req.headers?.[IDEMPOTENCY_RPC_HEADERS.key];
  if (key === undefined) return undefined;
  const fingerprint = req.headers?.[IDEMPOTENCY_RPC_HEADERS.fingerprint];
  if (!isIdempotencyKey(key) || !fingerprint) throw new HttpException(errors.invalidIdempotencyKey());
  return { scope: req.auth ? `credential:${req.auth.clientId}` : 'admin', key, fingerprint };
}
