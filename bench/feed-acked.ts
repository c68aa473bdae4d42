// Poll cost with 1,000,000 acknowledged events in a credential's history vs an empty store.
//   npx tsx bench/feed-acked.ts [--acked 1000000] [--polls 2000]
// Also discovered by `pnpm bench` (benchFeedAckedPollCost). Runs the feed service in-process on a
// fresh database (DATABASE_URL / NATS_URL or local defaults), fills the history with one SQL statement
// (generate_series), and times sequential polls through the service RPC (what the gateway calls).
import { randomUUID } from 'node:crypto';
import { connectBus, createRpcClient, loadRpcKeys } from '@od/bus';
import { FEED_OPS, names, type Principal } from '@od/contracts';
import { createPool } from '@od/db';
import { start } from '@od/feed';
import { cleanupNats, freshDatabase, testConfig, uniquePrefix } from '@od/testing';
import type { BenchContext } from './lib/types.ts';
import { percentiles } from './lib/types.ts';

export interface AckedCostResult {
  acked: number;
  polls: number;
  pending: number;
  /** one line per case: empty store, loaded history; then the same with `pending` events waiting */
  cases: { name: string; p50Ms: number; p99Ms: number; meanMs: number; planBuffers: number }[];
  fillSeconds: number;
}

const envelopeSql = (ts: string) =>
  `json_build_object('eventId', id, 'eventType', 'CREATED', 'orderId', oid,
     'orderURL', 'https://api.example.com/v1/orders/' || oid, 'createdAt',
     to_char(${ts} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), 'metadata', '{}'::json)::text`;

export async function measureAckedPollCost(
  opts: { acked?: number; polls?: number; pending?: number; log?: (m: string) => void } = {},
): Promise<AckedCostResult> {
  const acked = opts.acked ?? 1_000_000;
  const polls = opts.polls ?? 2000;
  const pending = opts.pending ?? 10;
  const log = opts.log ?? ((m: string) => process.stderr.write(`${m}\n`));
  const db = await freshDatabase();
  const prefix = uniquePrefix();
  const config = testConfig(db.url, prefix);
  const svc = await start(config);
  const pool = createPool(db.url, 'feed', 2);
  const nc = await connectBus(config.NATS_URL, 'bench');
  try {
    const empty = `odc_${'e'.repeat(24)}`;
    const loaded = `odc_${'1'.repeat(24)}`;
    const storeE = randomUUID();
    const storeL = randomUUID();
    log(`feed-acked: inserting ${acked} acknowledged events...`);
    const t0 = Date.now();
    await pool.query(
      `WITH g AS (
         SELECT gen_random_uuid() AS id, gen_random_uuid() AS oid,
                now() - interval '20 days' + n * interval '1 ms' AS ts
         FROM generate_series(1, $2::int) n),
       ev AS (
         INSERT INTO events (event_id, merchant_id, channel, event_type, order_id, created_at, envelope)
         SELECT id, $1, 'APP', 'CREATED', oid, ts, ${envelopeSql('ts')} FROM g
         RETURNING event_id, created_at)
       INSERT INTO feed_entries (credential_id, event_id, event_created_at, acked_at)
       SELECT $3, event_id, created_at, created_at + interval '1 minute' FROM ev`,
      [storeL, acked, loaded],
    );
    const fillSeconds = (Date.now() - t0) / 1000;
    log(`feed-acked: filled in ${fillSeconds.toFixed(1)} s; vacuum analyze...`);
    await pool.query('VACUUM ANALYZE feed_entries');
    await pool.query('VACUUM ANALYZE events');

    const addPending = async (store: string, cred: string) =>
      pool.query(
        `WITH g AS (SELECT gen_random_uuid() AS id, gen_random_uuid() AS oid, now() + n * interval '1 ms' AS ts
                    FROM generate_series(1, $2::int) n),
         ev AS (INSERT INTO events (event_id, merchant_id, channel, event_type, order_id, created_at, envelope)
                SELECT id, $1, 'APP', 'CREATED', oid, ts, ${envelopeSql('ts')} FROM g RETURNING event_id, created_at)
         INSERT INTO feed_entries (credential_id, event_id, event_created_at) SELECT $3, event_id, created_at FROM ev`,
        [store, pending, cred],
      );
    // signed as the gateway would, for the credential (development keys unless the env names others)
    const rpc = createRpcClient(nc, names(prefix), 'gateway', loadRpcKeys('gateway', process.env));
    const time = async (cred: string, expect: number) => {
      const principal: Principal = {
        kind: 'credential',
        clientId: cred,
        merchantId: randomUUID(),
        scopes: ['orders:read'],
      };
      const poll = () => rpc.call(FEED_OPS.poll, { query: { limit: 100 } }, { traceId: 'bench', principal });
      const check = await poll();
      const got = JSON.parse(new TextDecoder().decode(check.body)) as unknown[];
      if (got.length !== expect)
        throw new Error(`poll of ${cred} returned ${got.length}, expected ${expect}`);
      for (let i = 0; i < 200; i++) await poll(); // warm-up
      const samples: number[] = [];
      for (let i = 0; i < polls; i++) {
        const s = process.hrtime.bigint();
        await poll();
        samples.push(Number(process.hrtime.bigint() - s) / 1e6);
      }
      const plan = await pool.query(
        `EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) SELECT COALESCE('[' || string_agg(e.envelope, ',' ORDER BY p.event_created_at, p.seq) || ']', '[]')
         FROM (SELECT seq, event_id, event_created_at FROM feed_entries WHERE credential_id = $1 AND acked_at IS NULL
               ORDER BY event_created_at, seq LIMIT 100) p JOIN events e ON e.event_id = p.event_id`,
        [cred],
      );
      const top = plan.rows[0]['QUERY PLAN'][0].Plan;
      const p = percentiles(samples);
      return {
        p50Ms: +p.p50Ms.toFixed(3),
        p99Ms: +p.p99Ms.toFixed(3),
        meanMs: +(samples.reduce((a, b) => a + b, 0) / samples.length).toFixed(3),
        planBuffers: (top['Shared Hit Blocks'] ?? 0) + (top['Shared Read Blocks'] ?? 0),
      };
    };
    const cases: AckedCostResult['cases'] = [];
    cases.push({ name: 'empty store, 0 pending', ...(await time(empty, 0)) });
    cases.push({ name: `${acked} acknowledged, 0 pending`, ...(await time(loaded, 0)) });
    await addPending(storeE, empty);
    await addPending(storeL, loaded);
    cases.push({ name: `empty store, ${pending} pending`, ...(await time(empty, pending)) });
    cases.push({ name: `${acked} acknowledged, ${pending} pending`, ...(await time(loaded, pending)) });
    for (const c of cases)
      log(`  ${c.name}: p50 ${c.p50Ms} ms, p99 ${c.p99Ms} ms, mean ${c.meanMs} ms, buffers ${c.planBuffers}`);
    return { acked, polls, pending, cases, fillSeconds };
  } finally {
    await nc.close().catch(() => {});
    await pool.end().catch(() => {});
    await svc.stop().catch(() => {});
    await cleanupNats(config.NATS_URL, prefix).catch(() => {});
    await db.drop();
  }
}

/** `pnpm bench` entry: latency-only figures (sequential polls through the feed RPC). */
export async function benchFeedAckedPollCost(ctx: BenchContext): Promise<void> {
  const r = await measureAckedPollCost({ log: ctx.log });
  for (const c of r.cases)
    ctx.record({
      name: `feed poll via RPC: ${c.name}`,
      p50Ms: c.p50Ms,
      p99Ms: c.p99Ms,
      extra: { meanMs: c.meanMs, planBuffers: c.planBuffers, polls: r.polls },
    });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const arg = (k: string) => {
    const i = process.argv.indexOf(k);
    return i > 0 ? Number(process.argv[i + 1]) : undefined;
  };
  const r = await measureAckedPollCost({ acked: arg('--acked'), polls: arg('--polls') });
  console.log(JSON.stringify(r, null, 2));
  process.exit(0);
}
