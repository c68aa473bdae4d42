import type { Actor, OrderChannel, OrderType, PendingCancellation, Situation } from '@od/contracts';
import { isGuid } from '@od/contracts';
import type { Pool, PoolClient } from '@od/db';
import { currentTraceparent } from '@od/telemetry';

/**
 * SQL of the orders service (through the service's pg pool, search_path = orders). `orders.document`
 * is the read model (the public Order JSON); the other columns are what a query filters or locks on.
 * Every statement has a fixed number of parameters, whatever the size of the order.
 */

export const OUTBOX_CHANNEL = 'orders_outbox';

export interface LockedOrder {
  id: string;
  merchantId: string;
  type: OrderType;
  situation: Situation;
  channel: OrderChannel;
  eventSeq: number;
  /** the Open Delivery cancellation request waiting for an answer, null when none */
  cancellationRequest: CancellationRequest | null;
}

/** A cancellation request of the Open Delivery handshake, as stored (orders.cancellation_request). */
export interface CancellationRequest {
  party: Exclude<PendingCancellation, 'NONE'>;
  /** what the events answering it carry (EventMetadataCancel) */
  reason: string;
  code: string;
  requestedAt: string;
}

/** Which order a change may touch: other stores' (and, for integrators, unpaid) orders do not exist. */
export interface OrderScope {
  orderId: string;
  merchantId?: string;
  hidePendingPayment: boolean;
  /** a row another transaction holds is not waited for: treated as not visible (sweeps) */
  skipLocked?: boolean;
}

/**
 * `BEGIN` and the row lock in one round trip (simple protocol; ids are validated GUIDs, inlined
 * safely). The store and the visibility are checked by the locking query itself, so another
 * store's order is never locked. Undefined when no such order is visible.
 */
export async function beginAndLock(c: PoolClient, s: OrderScope): Promise<LockedOrder | undefined> {
  if (!isGuid(s.orderId) || (s.merchantId !== undefined && !isGuid(s.merchantId))) {
    await c.query('BEGIN');
    return undefined;
  }
  const store = s.merchantId === undefined ? '' : ` AND merchant_id = '${s.merchantId}'`;
  const visible = s.hidePendingPayment ? " AND situation <> 'PENDING_PAYMENT'" : '';
  const res = (await c.query(
    `BEGIN; SELECT id, merchant_id AS "merchantId", type, situation, channel, event_seq AS "eventSeq",
       cancellation_request AS "cancellationRequest"
     FROM orders WHERE id = '${s.orderId}'${store}${visible} FOR UPDATE${s.skipLocked ? ' SKIP LOCKED' : ''}`,
  )) as unknown as { rows: LockedOrder[] }[];
  return res[1].rows[0];
}

/**
 * The document of an order a credential sees plus `lastEvent` (type of its last history entry
 * whose event type is one of `eventTypes`, null when none) and `salesChannel` (its channel), as
 * text: what an Open Delivery Order is rendered from. `undefined` when not visible.
 */
export async function openDeliveryView(
  pool: Pool,
  orderId: unknown,
  merchantId: unknown,
  eventTypes: string[],
): Promise<string | undefined> {
  if (!isGuid(orderId) || !isGuid(merchantId)) return undefined;
  const { rows } = await pool.query<{ v: string }>({
    name: 'orders.get.open-delivery',
    text: `SELECT (o.document::jsonb || jsonb_build_object(
               'salesChannel', o.channel,
               'lastEvent', (SELECT h.event_type FROM order_history h
                              WHERE h.order_id = o.id AND h.event_type = ANY($3::text[])
                              ORDER BY h.id DESC LIMIT 1)))::text AS v
           FROM orders o WHERE o.id = $1 AND o.merchant_id = $2 AND o.situation <> 'PENDING_PAYMENT'`,
    values: [orderId, merchantId, eventTypes],
  });
  return rows[0]?.v;
}

/**
 * One column (as text) of an order a credential sees: its own store's, and paid (an unpaid order
 * does not exist for integrators). `undefined` for anything else, malformed ids included (404).
 * One prepared statement per column (`name`): GET /v1/orders/{id} is the hot path.
 */
export async function visibleOrderColumn(
  pool: Pool,
  name: string,
  column: 'document' | 'delivery_code',
  orderId: unknown,
  merchantId: unknown,
): Promise<string | undefined> {
  if (!isGuid(orderId) || !isGuid(merchantId)) return undefined;
  const { rows } = await pool.query<[string]>({
    name,
    text: `SELECT ${column}::text AS v FROM orders WHERE id = $1 AND merchant_id = $2 AND situation <> 'PENDING_PAYMENT'`,
    values: [orderId, merchantId],
    // no row object per result (pg's per-field work)
    rowMode: 'array',
  });
  return rows[0]?.[0];
}

export async function nextDisplayId(c: PoolClient): Promise<string> {
  const { rows } = await c.query<{ n: number }>("SELECT nextval('display_id_seq') AS n");
  return String(rows[0].n);
}

export async function readDocument<T>(c: PoolClient, id: string): Promise<T> {
  const { rows } = await c.query<{ d: string }>('SELECT document::text AS d FROM orders WHERE id = $1', [id]);
  return JSON.parse(rows[0].d) as T;
}

/** One change of one order as rows: the write path (`write.ts`) builds it, `writeChange` stores it. */
export interface ChangeRow {
  orderId: string;
  now: string;
  /** set for a new order (intake); `confirmTimeoutSeconds` starts its deadline when it is PENDING */
  create?: {
    merchantId: string;
    type: OrderType;
    channel: OrderChannel;
    confirmTimeoutSeconds: number | null;
  };
  from: Situation | null;
  to: Situation;
  /** serialized public Order; null = unchanged */
  document: string | null;
  trigger: string;
  actor: Actor;
  detail: string | null;
  /** the outbox row, null when the change emits no event */
  event: { eventId: string; merchantId: string; orderSeq: number; eventType: string; message: string } | null;
  /** NOTIFY other replicas' relay leader (false when this process leads) */
  notify: boolean;
  /** the cancellation request after the change: undefined = unchanged, null = none */
  cancellationRequest?: CancellationRequest | null;
}

const HISTORY_AND_OUTBOX = `
  o AS (
    INSERT INTO order_outbox (event_id, order_id, merchant_id, order_seq, event_type, message, created_at,
      traceparent)
    SELECT $5::uuid, $1, $6::uuid, $7::int, $8, $9, $3, $17 WHERE $5::uuid IS NOT NULL
    RETURNING id
  ), h AS (
    INSERT INTO order_history (order_id, trigger, from_situation, to_situation, actor_kind, actor_client_id,
      actor_user_id, actor_email, event_id, event_type, detail, created_at)
    VALUES ($1, $10, $11, $2, $12, $13, $18::uuid, $19, $5::uuid, $8, $14::jsonb, $3)
  )
  SELECT CASE WHEN $5::uuid IS NOT NULL AND $15::bool THEN pg_notify('${OUTBOX_CHANNEL}', '') END AS n,
    (SELECT id FROM o)::text AS outbox_id,
    -- the statement's snapshot (the order locked) does not see the row o inserts: earlier events only
    NOT EXISTS (
      SELECT 1 FROM order_outbox WHERE order_id = $1 AND published_at IS NULL AND set_aside_at IS NULL
    ) AS alone`;

/** What `writeChange` wrote to the outbox: its row, and whether no earlier event of the order is unpublished. */
export interface Written {
  outboxId: number | null;
  traceparent: string | null;
  /**
   * every earlier event of the order is on the bus (or set aside): the new one may be published at
   * once after the commit without overtaking one (outbox/relay.ts `publishNow`)
   */
  alone: boolean;
}
const written = (
  rows: { outbox_id: string | null; alone: boolean }[],
  traceparent: string | null,
): Written => ({
  outboxId: rows[0]?.outbox_id == null ? null : Number(rows[0].outbox_id),
  traceparent,
  alone: rows[0]?.alone === true,
});

/**
 * The whole change in one statement (data-modifying CTEs always run): the order row (inserted or
 * updated), its history row, and its outbox row + NOTIFY when there is an event.
 */
export async function writeChange(c: PoolClient, r: ChangeRow): Promise<Written> {
  const e = r.event;
  // the action's trace (sampled only): the relay publishes the event into it
  const traceparent = currentTraceparent();
  const values: unknown[] = [
    r.orderId,
    r.to,
    r.now,
    e ? 1 : 0,
    e?.eventId ?? null,
    e?.merchantId ?? null,
    e?.orderSeq ?? null,
    e?.eventType ?? null,
    e?.message ?? null,
    r.trigger,
    r.from,
    r.actor.kind,
    r.actor.kind === 'CREDENTIAL' ? r.actor.clientId : null,
    r.detail,
    r.notify,
    r.document,
    traceparent,
    // a panel click: the signed-in merchant user (id and e-mail as the panel signed them)
    r.actor.kind === 'PANEL' ? (r.actor.userId ?? null) : null,
    r.actor.kind === 'PANEL' ? (r.actor.email ?? null) : null,
  ];
  type Out = { outbox_id: string | null; alone: boolean };
  if (r.create) {
    const { rows } = await c.query<Out>({
      name: 'orders.create',
      text: `WITH u AS (
          INSERT INTO orders (id, merchant_id, type, channel, situation, created_at, updated_at, event_seq, document,
            confirm_timeout_seconds)
          VALUES ($1, $20, $21, $22, $2, $3, $3, $4, $16::json, $23::int)
        ), d AS (
          INSERT INTO order_deadlines (order_id, confirm_by)
          SELECT $1, $3::timestamptz + make_interval(secs => $23::int) WHERE $2 = 'PENDING' AND $23::int IS NOT NULL
        ), ${HISTORY_AND_OUTBOX}`,
      values: [
        ...values,
        r.create.merchantId,
        r.create.type,
        r.create.channel,
        r.create.confirmTimeoutSeconds,
      ],
    });
    return written(rows, traceparent);
  }
  const { rows } = await c.query<Out>({
    name: 'orders.change',
    text: `WITH u AS (
        UPDATE orders SET situation = $2, updated_at = $3, event_seq = event_seq + $4,
          document = COALESCE($16::json, document),
          cancellation_request = CASE WHEN $20::bool THEN $21::jsonb ELSE cancellation_request END
        WHERE id = $1
      ), d AS (
        -- an order paid now enters PENDING now: its deadline starts now
        INSERT INTO order_deadlines (order_id, confirm_by)
        SELECT id, $3::timestamptz + make_interval(secs => confirm_timeout_seconds) FROM orders
        WHERE id = $1 AND $2 = 'PENDING' AND $11 = 'PENDING_PAYMENT' AND confirm_timeout_seconds IS NOT NULL
        ON CONFLICT (order_id) DO NOTHING
      ), x AS (
        -- leaving PENDING (confirmed, cancelled, expired): nothing to wait for any more
        DELETE FROM order_deadlines WHERE order_id = $1 AND $11 = 'PENDING' AND $2 <> 'PENDING'
      ), ${HISTORY_AND_OUTBOX}`,
    values: [
      ...values,
      r.cancellationRequest !== undefined,
      r.cancellationRequest ? JSON.stringify(r.cancellationRequest) : null,
    ],
  });
  return written(rows, traceparent);
}

/** Drops the order's entries of `trigger` older than its newest `keep` (ids grow with time). */
export async function trimHistory(
  c: PoolClient,
  orderId: string,
  trigger: string,
  keep: number,
): Promise<void> {
  await c.query({
    name: 'orders.trimHistory',
    text: `DELETE FROM order_history WHERE order_id = $1 AND trigger = $2 AND id < (
        SELECT min(id) FROM (
          SELECT id FROM order_history WHERE order_id = $1 AND trigger = $2 ORDER BY id DESC LIMIT $3
        ) newest)`,
    values: [orderId, trigger, keep],
  });
}

/** Orders past their confirmation deadline, oldest first (order_deadlines holds PENDING orders only). */
export async function overdueOrders(pool: Pool, limit: number): Promise<string[]> {
  const r = await pool.query<{ id: string }>({
    name: 'orders.overdue',
    text: 'SELECT order_id AS id FROM order_deadlines WHERE confirm_by <= now() ORDER BY confirm_by LIMIT $1',
    values: [limit],
  });
  return r.rows.map((x) => x.id);
}

/** A deadline whose order is no longer PENDING (left behind by a release before the schedule). */
export async function dropStaleDeadline(pool: Pool, orderId: string): Promise<void> {
  await pool.query(
    `DELETE FROM order_deadlines d WHERE d.order_id = $1
       AND NOT EXISTS (SELECT 1 FROM orders o WHERE o.id = d.order_id AND o.situation = 'PENDING')`,
    [orderId],
  );
}

/** The store of an order (null = unknown): what a merchant user's request is checked against. */
export const storeOfOrder = (pool: Pool) => async (orderId: string) => {
  if (!isGuid(orderId)) return null;
  const r = await pool.query<{ m: string }>('SELECT merchant_id AS m FROM orders WHERE id = $1', [orderId]);
  return r.rows[0]?.m ?? null;
};
