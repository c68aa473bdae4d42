// Seeds a platform's worth of history straight into PostgreSQL for `pnpm bench:scale`: stores,
// credentials, 30 days of orders at a daily curve, their events and per-credential feed entries
// (almost all acknowledged). Rows are generated inside PostgreSQL (INSERT ... SELECT over
// generate_series): as fast as COPY and nothing crosses the wire. Templates (an order document, an
// event envelope) come from a real order the harness created through the API, so rows have the
// real shapes and sizes.
import type pg from 'pg';

/** The full platform (scale 1). */
export const FULL = { stores: 5000, credentialsPerStore: 2, orders: 1_500_000 };
/** Events per seeded order: the delivery path, as the feed stores it. */
const EVENT_TYPES = ['CREATED', 'CONFIRMED', 'PREPARING', 'READY_FOR_PICKUP', 'DISPATCHED', 'CONCLUDED'];
/** Hours of the day orders are drawn from (lunch and dinner peaks, a quiet afternoon). */
const HOURS = [11, 11, 12, 12, 12, 12, 13, 13, 15, 18, 19, 19, 19, 20, 20, 20, 20, 21, 21, 22];

export interface SeedTemplate {
  orderId: string;
  document: string;
  type: string;
  channel: string;
  eventId: string;
  eventChannel: string;
  envelope: string;
}

export interface SeedResult {
  stores: number;
  credentials: number;
  orders: number;
  events: number;
  feedEntries: number;
  seconds: Record<string, number>;
}

/**
 * Days `fromDay`..`toDay` before today of history (today is left to the live measurements; day 1
 * is yesterday), `FULL.orders / 30` orders a day at full scale; the measured store gets its share
 * of orders, and its real credentials their (acknowledged) feed history. Stores and credentials are
 * created by the call that starts at day 1.
 */
export async function seedPlatform(
  db: pg.Client,
  opts: { scale: number; fromDay: number; toDay: number; measuredMerchantId: string; template: SeedTemplate },
): Promise<SeedResult> {
  const stores = Math.max(1, Math.round(FULL.stores * opts.scale));
  const days = opts.toDay - opts.fromDay + 1;
  const orders = Math.max(stores, Math.round(((FULL.orders * opts.scale) / 30) * days));
  const t = opts.template;
  const seconds: Record<string, number> = {};
  const step = async (name: string, sql: string, values: unknown[] = []) => {
    const t0 = Date.now();
    const r = await db.query(sql, values);
    seconds[name] = (Date.now() - t0) / 1000;
    return r.rowCount ?? 0;
  };
  await step(
    'stores',
    `CREATE TEMP TABLE seed_stores AS
       SELECT md5('seed-store-' || s)::uuid AS merchant_id, s - 1 AS k FROM generate_series(1, $1) s
       UNION ALL SELECT $2::uuid, $1`,
    [stores, opts.measuredMerchantId],
  );
  const credentials =
    opts.fromDay > 1
      ? 0
      : await step(
          'credentials',
          `INSERT INTO feed.credentials (client_id, merchant_id, status, include_marketplace_orders, api_profile, created_at, updated_at)
     SELECT 'seed-' || s.k || '-' || c, s.merchant_id, 'ACTIVE', false, 'SPEC', now() - interval '90 days', now() - interval '90 days'
     FROM seed_stores s, generate_series(1, $1) c WHERE s.merchant_id <> $2::uuid`,
          [FULL.credentialsPerStore, opts.measuredMerchantId],
        );
  await step(
    'order ids',
    `CREATE TEMP TABLE seed_orders AS
       SELECT gen_random_uuid() AS id, s.merchant_id,
         date_trunc('day', now()) - make_interval(days => $5 + (i % $3))
           + make_interval(hours => ($4::int[])[1 + floor(random() * array_length($4::int[], 1))::int],
                           mins => floor(random() * 60)::int, secs => floor(random() * 60)::int) AS created_at
       FROM generate_series(1, $1) i JOIN seed_stores s ON s.k = i % ($2 + 1)`,
    [orders, stores, days, HOURS, opts.fromDay],
  );
  const orderRows = await step(
    'orders',
    `INSERT INTO orders.orders (id, merchant_id, type, channel, situation, created_at, updated_at, event_seq, document)
     SELECT id, merchant_id, $1, $2, 'DONE', created_at, created_at + interval '55 minutes', $3,
       replace($4, $5, id::text)::json
     FROM seed_orders`,
    [t.type, t.channel, EVENT_TYPES.length, t.document, t.orderId],
  );
  const events = await step(
    'events',
    `INSERT INTO feed.events (event_id, merchant_id, channel, event_type, order_id, created_at, envelope, stored_at, order_seq)
     SELECT x.eid, x.merchant_id, $1, ($2::text[])[x.k], x.id, x.created_at + make_interval(mins => 8 * x.k),
       replace(replace($3, $4, x.eid::text), $5, x.id::text), x.created_at + make_interval(mins => 8 * x.k), x.k
     FROM (SELECT o.*, k, gen_random_uuid() AS eid
           FROM seed_orders o CROSS JOIN generate_series(1, array_length($2::text[], 1)) k) x`,
    [t.eventChannel, EVENT_TYPES, t.envelope, t.eventId, t.orderId],
  );
  // one entry per event per credential of the store; a few seeded ones stay pending forever, as
  // with real integrators that never acknowledge some events (never the measured credentials)
  const feedEntries = await step(
    'feed entries',
    `INSERT INTO feed.feed_entries (credential_id, event_id, event_created_at, added_at, acked_at, held)
     SELECT c.client_id, e.event_id, e.created_at, e.created_at,
       CASE WHEN c.client_id LIKE 'seed-%' AND random() < 0.001 THEN NULL ELSE e.created_at + interval '30 seconds' END,
       false
     FROM seed_orders o JOIN feed.events e ON e.order_id = o.id
     JOIN feed.credentials c ON c.merchant_id = e.merchant_id`,
  );
  // old rows are vacuumed by now on a real platform (and autovacuum must not skew the figures)
  await step('vacuum', 'VACUUM ANALYZE');
  await db.query('DROP TABLE seed_orders; DROP TABLE seed_stores');
  return { stores, credentials, orders: orderRows, events, feedEntries, seconds };
}

/** Table and index sizes (MB) of the tables the hot paths read. */
export async function tableSizes(
  db: pg.Client,
): Promise<Record<string, { rows: number; tableMb: number; indexMb: number }>> {
  const { rows } = await db.query<{ name: string; rows: string; table_mb: string; index_mb: string }>(
    `SELECT n.nspname || '.' || c.relname AS name, c.reltuples::bigint AS rows,
       round(pg_table_size(c.oid) / 1048576.0, 1) AS table_mb, round(pg_indexes_size(c.oid) / 1048576.0, 1) AS index_mb
     FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE c.relkind = 'r' AND n.nspname IN ('orders', 'feed') AND pg_table_size(c.oid) > 65536
     ORDER BY pg_total_relation_size(c.oid) DESC`,
  );
  return Object.fromEntries(
    rows.map((r) => [
      r.name,
      { rows: Number(r.rows), tableMb: Number(r.table_mb), indexMb: Number(r.index_mb) },
    ]),
  );
}
