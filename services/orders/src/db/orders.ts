import type {
  Actor,
  EventType,
  Order,
  OrderChannel,
  OrderEventMessage,
  OrderType,
  Situation,
} from '@od/contracts';
import type { PoolClient } from '@od/db';

/**
 * SQL of the orders service (through the service's pg pool, search_path = orders). Writes keep the
 * normalized rows and the rendered public document in the same transaction; GET reads the document.
 */

export const OUTBOX_CHANNEL = 'orders_outbox';

async function insertRows(
  c: PoolClient,
  table: string,
  cols: string[],
  rows: unknown[][],
  casts: Record<string, string> = {},
): Promise<void> {
  if (rows.length === 0) return;
  const params: unknown[] = [];
  const tuples = rows.map((r) => {
    const ph = r.map((v, i) => {
      params.push(v);
      const cast = casts[cols[i]];
      return `$${params.length}${cast ? `::${cast}` : ''}`;
    });
    return `(${ph.join(', ')})`;
  });
  await c.query(`INSERT INTO ${table} (${cols.join(', ')}) VALUES ${tuples.join(', ')}`, params);
}

const json = (v: unknown) => (v === null || v === undefined ? null : JSON.stringify(v));

/** The order's child rows (items, options, fees, discounts, payments, type block). */
async function writeChildren(c: PoolClient, o: Order): Promise<void> {
  await insertRows(
    c,
    'order_items',
    [
      'order_id',
      'idx',
      'item_id',
      'name',
      'external_code',
      'unit',
      'ean',
      'quantity',
      'special_instructions',
      'unit_price',
      'options_price',
      'total_price',
    ],
    o.items.map((it, i) => [
      o.id,
      i,
      it.id,
      it.name,
      it.externalCode,
      it.unit,
      it.ean,
      it.quantity,
      it.specialInstructions,
      it.unitPrice.value,
      it.optionsPrice.value,
      it.totalPrice.value,
    ]),
  );
  await insertRows(
    c,
    'order_item_options',
    [
      'order_id',
      'item_idx',
      'idx',
      'option_id',
      'name',
      'external_code',
      'quantity',
      'unit',
      'unit_price',
      'price',
      'group_name',
    ],
    o.items.flatMap((it, i) =>
      it.options.map((op, j) => [
        o.id,
        i,
        j,
        op.id,
        op.name,
        op.externalCode,
        op.quantity,
        op.unit,
        op.unitPrice.value,
        op.price.value,
        op.groupName,
      ]),
    ),
  );
  await insertRows(
    c,
    'order_fees',
    ['order_id', 'idx', 'name', 'type', 'received_by', 'price'],
    o.otherFees.map((f, i) => [o.id, i, f.name, f.type, f.receivedBy, f.price.value]),
  );
  await insertRows(
    c,
    'order_discounts',
    ['order_id', 'idx', 'amount', 'target', 'target_id', 'sponsorship_values'],
    (o.discounts ?? []).map((d, i) => [
      o.id,
      i,
      d.amount.value,
      d.target,
      d.targetId,
      json(d.sponsorshipValues),
    ]),
    { sponsorship_values: 'jsonb' },
  );
  await insertRows(
    c,
    'order_payment_methods',
    ['order_id', 'idx', 'value', 'method', 'method_info', 'type', 'change_for', 'brand', 'transaction'],
    o.payments.methods.map((m, i) => [
      o.id,
      i,
      m.value,
      m.method,
      m.methodInfo,
      m.type,
      m.changeFor,
      m.brand,
      json(m.transaction),
    ]),
    { transaction: 'jsonb' },
  );
  if (o.delivery) {
    const a = o.delivery.deliveryAddress;
    await insertRows(
      c,
      'order_deliveries',
      [
        'order_id',
        'delivered_by',
        'estimated_delivery_date_time',
        'delivery_date_time',
        'country',
        'state',
        'city',
        'district',
        'street',
        'number',
        'postal_code',
        'complement',
        'reference',
        'formatted_address',
        'latitude',
        'longitude',
      ],
      [
        [
          o.id,
          o.delivery.deliveredBy,
          o.delivery.estimatedDeliveryDateTime,
          o.delivery.deliveryDateTime,
          a.country,
          a.state,
          a.city,
          a.district,
          a.street,
          a.number,
          a.postalCode,
          a.complement,
          a.reference,
          a.formattedAddress,
          a.coordinates.latitude,
          a.coordinates.longitude,
        ],
      ],
    );
  }
  if (o.takeout)
    await insertRows(
      c,
      'order_takeouts',
      ['order_id', 'mode', 'takeout_date_time'],
      [[o.id, o.takeout.mode, o.takeout.takeoutDateTime]],
    );
  if (o.indoor)
    await insertRows(
      c,
      'order_indoors',
      ['order_id', 'mode', 'indoor_date_time', 'place', 'tab'],
      [[o.id, o.indoor.mode, o.indoor.indoorDateTime, o.indoor.place, o.indoor.tab]],
    );
}

function orderColumns(o: Order) {
  return {
    preparation_start_date_time: o.preparationStartDateTime,
    scheduled_start: o.schedule?.scheduledDateTimeStart ?? null,
    scheduled_end: o.schedule?.scheduledDateTimeEnd ?? null,
    merchant_name: o.merchant.name,
    customer_id: o.customer.id,
    customer_name: o.customer.name,
    customer_phone: o.customer.phone.number,
    customer_phone_extension: o.customer.phone.extension,
    customer_document: o.customer.documentNumber,
    customer_email: o.customer.email,
    customer_orders_count: o.customer.ordersCountOnMerchant,
    total_items: o.total.items.value,
    total_other_fees: o.total.otherFees.value,
    total_discount: o.total.discount.value,
    order_amount: o.total.orderAmount.value,
    prepaid: o.payments.prepaid,
    pending: o.payments.pending,
    extra_info: o.extraInfo,
    document: JSON.stringify(o),
  };
}

export async function nextDisplayId(c: PoolClient): Promise<string> {
  const { rows } = await c.query<{ n: number }>("SELECT nextval('display_id_seq') AS n");
  return String(rows[0].n);
}

export async function insertOrder(
  c: PoolClient,
  o: Order,
  meta: { channel: OrderChannel; situation: Situation },
): Promise<void> {
  const cols = {
    id: o.id,
    merchant_id: o.merchant.id,
    display_id: o.displayId,
    type: o.type,
    order_timing: o.orderTiming,
    channel: meta.channel,
    situation: meta.situation,
    test: o.test,
    created_at: o.createdAt,
    updated_at: o.createdAt,
    ...orderColumns(o),
  };
  await insertRows(c, 'orders', Object.keys(cols), [Object.values(cols)]);
  await writeChildren(c, o);
}

/** Replaces the content of an order (edit): child rows rewritten, document re-rendered. */
export async function rewriteOrder(c: PoolClient, o: Order, now: string): Promise<void> {
  const cols = orderColumns(o);
  const keys = Object.keys(cols);
  await c.query(
    `UPDATE orders SET ${keys.map((k, i) => `${k} = $${i + 2}`).join(', ')}, updated_at = $${keys.length + 2} WHERE id = $1`,
    [o.id, ...Object.values(cols), now],
  );
  for (const t of [
    'order_item_options',
    'order_items',
    'order_fees',
    'order_discounts',
    'order_payment_methods',
    'order_deliveries',
    'order_takeouts',
    'order_indoors',
  ])
    await c.query(`DELETE FROM ${t} WHERE order_id = $1`, [o.id]);
  await writeChildren(c, o);
}

export interface LockedOrder {
  id: string;
  merchantId: string;
  type: OrderType;
  situation: Situation;
  channel: OrderChannel;
  eventSeq: number;
}

export async function lockOrder(c: PoolClient, id: string): Promise<LockedOrder | undefined> {
  const { rows } = await c.query(
    `SELECT id, merchant_id AS "merchantId", type, situation, channel, event_seq AS "eventSeq"
     FROM orders WHERE id = $1 FOR UPDATE`,
    [id],
  );
  return rows[0];
}

export async function readDocument(c: PoolClient, id: string): Promise<Order> {
  const { rows } = await c.query<{ d: string }>('SELECT document::text AS d FROM orders WHERE id = $1', [id]);
  return JSON.parse(rows[0].d) as Order;
}

export async function setSituation(
  c: PoolClient,
  id: string,
  situation: Situation,
  now: string,
  seqBump: number,
): Promise<number> {
  const { rows } = await c.query<{ s: number }>(
    'UPDATE orders SET situation = $2, updated_at = $3, event_seq = event_seq + $4 WHERE id = $1 RETURNING event_seq AS s',
    [id, situation, now, seqBump],
  );
  return rows[0].s;
}

export async function bumpSeq(c: PoolClient, id: string): Promise<number> {
  const { rows } = await c.query<{ s: number }>(
    'UPDATE orders SET event_seq = event_seq + 1 WHERE id = $1 RETURNING event_seq AS s',
    [id],
  );
  return rows[0].s;
}

export async function appendHistory(
  c: PoolClient,
  h: {
    orderId: string;
    trigger: string;
    from: Situation | null;
    to: Situation;
    actor: Actor;
    eventId?: string;
    eventType?: EventType;
    detail?: unknown;
    at: string;
  },
): Promise<void> {
  await c.query(
    `INSERT INTO order_history (order_id, trigger, from_situation, to_situation, actor_kind, actor_client_id,
       event_id, event_type, detail, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9::jsonb, $10)`,
    [
      h.orderId,
      h.trigger,
      h.from,
      h.to,
      h.actor.kind,
      h.actor.kind === 'CREDENTIAL' ? h.actor.clientId : null,
      h.eventId ?? null,
      h.eventType ?? null,
      json(h.detail),
      h.at,
    ],
  );
}

/**
 * Outbox row + NOTIFY (delivered at commit) so the relay leader of another replica wakes up.
 * `notify` false when this process holds the relay leadership (woken in-process instead): NOTIFY
 * serializes committing transactions on a global lock, worth avoiding on the hot path.
 */
export async function insertOutbox(c: PoolClient, m: OrderEventMessage, notify = true): Promise<void> {
  await c.query(
    `INSERT INTO order_outbox (event_id, order_id, merchant_id, order_seq, event_type, message, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7)`,
    [
      m.envelope.eventId,
      m.envelope.orderId,
      m.merchantId,
      m.orderSeq,
      m.envelope.eventType,
      JSON.stringify(m),
      m.envelope.createdAt,
    ],
  );
  if (notify) await c.query(`SELECT pg_notify('${OUTBOX_CHANNEL}', '')`);
}

export { withTx } from '@od/db';

/**
 * Hot path of an action: `BEGIN` and the row lock in one round trip (simple protocol; the id is a
 * validated GUID, inlined safely). Returns undefined when the order does not exist.
 */
export async function beginAndLock(c: PoolClient, id: string): Promise<LockedOrder | undefined> {
  if (!/^[0-9a-fA-F-]{36}$/.test(id)) throw new Error('beginAndLock: not a GUID');
  const res = (await c.query(
    `BEGIN; SELECT id, merchant_id AS "merchantId", type, situation, channel, event_seq AS "eventSeq"
     FROM orders WHERE id = '${id}' FOR UPDATE`,
  )) as unknown as { rows: LockedOrder[] }[];
  return res[1].rows[0];
}

/**
 * Hot path of an action: situation change, history row and (when there is an event) the outbox
 * row + NOTIFY, in one statement (data-modifying CTEs always run). `message` null = no event.
 */
export async function writeTransition(
  c: PoolClient,
  t: {
    orderId: string;
    to: Situation;
    from: Situation;
    trigger: string;
    actor: Actor;
    now: string;
    detail?: unknown;
    message: OrderEventMessage | null;
    /** NOTIFY other replicas' relay leader (false when this process leads) */
    notify: boolean;
  },
): Promise<void> {
  const m = t.message;
  await c.query({
    name: 'orders.transition',
    text: `WITH u AS (
        UPDATE orders SET situation = $2, updated_at = $3, event_seq = event_seq + $4 WHERE id = $1
      ), o AS (
        INSERT INTO order_outbox (event_id, order_id, merchant_id, order_seq, event_type, message, created_at)
        SELECT $5::uuid, $1, $6::uuid, $7::int, $8, $9, $3 WHERE $5::uuid IS NOT NULL
      ), h AS (
        INSERT INTO order_history (order_id, trigger, from_situation, to_situation, actor_kind, actor_client_id,
          event_id, event_type, detail, created_at)
        VALUES ($1, $10, $11, $2, $12, $13, $5::uuid, $8, $14::jsonb, $3)
      )
      SELECT CASE WHEN $5::uuid IS NOT NULL AND $15::bool THEN pg_notify('${OUTBOX_CHANNEL}', '') END AS n`,
    values: [
      t.orderId,
      t.to,
      t.now,
      m ? 1 : 0,
      m?.envelope.eventId ?? null,
      m?.merchantId ?? null,
      m?.orderSeq ?? null,
      m?.envelope.eventType ?? null,
      m ? JSON.stringify(m) : null,
      t.trigger,
      t.from,
      t.actor.kind,
      t.actor.kind === 'CREDENTIAL' ? t.actor.clientId : null,
      json(t.detail),
      t.notify,
    ],
  });
}
