// `pnpm bench:scale [--scales 0.01,1] [--duration 5] [--purge-days 2] [--purge-baseline]`
// The hot paths at a platform's size: seeds 5,000 stores, 10,000 credentials, 30 days of orders at a
// daily curve (1.5 million orders, ~9 million events, ~18 million feed entries, almost all
// acknowledged) straight into PostgreSQL (bench/lib/seed.ts), then measures poll (empty and 10
// events), acknowledgment, GET order, order intake, the retention purge (and polling and intake
// while it runs) and a sustained order lifecycle with its event latency, at each scale (1 = full,
// 0.01 = 1%), every figure beside bare fastify in the same run and with the CPU µs per request of
// each process. Its own PostgreSQL, Redis and NATS on spare ports (scripts/chaos/servers.ts), so the
// CPU of every process is the stack's alone. Results: bench/results/scale-latest.json and two SVG
// charts beside it.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { Command } from 'commander';
import pg from 'pg';
import { ownPostgres, ownRedis } from '../scripts/chaos/servers.ts';
import { runRetention } from '../services/feed/src/db/retention.ts';
import { cpuPerRequest, stackGroups } from './lib/cpu.ts';
import { okJson, pollingCredential } from './lib/credential.ts';
import { load } from './lib/load.ts';
import { type LockSample, sampleLocks } from './lib/locks.ts';
import { purgeBefore } from './lib/purge-before.ts';
import { FULL, type SeedResult, seedPlatform, tableSizes } from './lib/seed.ts';
import { type ProcessStack, RESULTS_DIR, startBare, startProcessStack } from './lib/stack.ts';
import { lineChart, stackedBars } from './lib/svg.ts';
import type { LoadOptions, LoadResult } from './lib/types.ts';

const o = new Command('bench:scale')
  .option('--scales <list>', 'fractions of the full platform to measure, in order', '0.01,1')
  .option('--duration <s>', 'seconds of load per figure', '5')
  .option('--connections <n>', 'autocannon connections', '20')
  .option('--purge-days <n>', 'days of history past the 30 kept, seeded just before the purge', '2')
  .option(
    '--purge-baseline',
    'also run the purge as it was before its cursor, first, on a backlog of the same size',
  )
  .parse()
  .opts<{
    scales: string;
    duration: string;
    connections: string;
    purgeDays: string;
    purgeBaseline?: boolean;
  }>();
const log = (m: string) => process.stderr.write(`[scale ${new Date().toISOString().slice(11, 19)}] ${m}\n`);
const duration = Number(o.duration);
const defaults = { duration, connections: Number(o.connections) };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] : 0;
};
const round = (n: number, d = 1) => Math.round(n * 10 ** d) / 10 ** d;

interface Figure extends LoadResult {
  name: string;
  ratio: number;
  cpuUs?: Record<string, number>;
}

interface PurgeFigure {
  seconds: number;
  entries: number;
  events: number;
  entriesPerSec: number;
  locks: LockSample;
  sizesAfter: Awaited<ReturnType<typeof tableSizes>>;
  pollDuring: LoadResult;
  intakeDuringMs: { p50: number; p99: number; max: number };
}

interface ScaleRun {
  scale: number;
  seeded: SeedResult;
  sizes: Awaited<ReturnType<typeof tableSizes>>;
  bareReqPerSec: number;
  figures: Figure[];
  purge: PurgeFigure;
  /** with --purge-baseline: the purge before the cursor, on a backlog of the same size, same run */
  purgeBaseline?: PurgeFigure;
  sustained: {
    seconds: number;
    ordersConcluded: number;
    ordersPerSec: number;
    actionsPerSec: number;
    eventLatencyMs: { p50: number; p99: number; n: number };
  };
}

async function runScale(scale: number): Promise<ScaleRun> {
  log(`scale ${scale}: starting PostgreSQL, Redis and NATS of its own`);
  const [pgServer, redis] = await Promise.all([ownPostgres(), ownRedis()]);
  process.env.DATABASE_URL = pgServer.url;
  process.env.REDIS_URL = redis.url;
  let stack: ProcessStack | undefined;
  const bare = await startBare();
  try {
    stack = await startProcessStack({ prefix: 'scale', log });
    const stackUpAt = Date.now();
    const s = stack;
    const admin = s.admin;
    const api = (p: string, init: RequestInit = {}) => fetch(s.publicUrl + p, init);

    // the measured store and its two credentials
    const store = await okJson<{ id: string }>(
      await admin('POST', '/admin/v1/merchants', { name: 'Medida', test: true }),
    );
    const merchantId = store.id;
    await admin('PUT', `/admin/v1/merchants/${merchantId}/menu`, { sample: true }).catch(() => undefined);
    const cred = async (name: string) => {
      const c = await pollingCredential(s.publicUrl, admin, merchantId, name);
      return { ...c, auth: { authorization: `Bearer ${c.token}` } };
    };
    const c1 = await cred('empty poller');
    const c2 = await cred('busy poller');
    const createOrder = async () =>
      okJson<{ id: string }>(
        await admin('POST', `/admin/v1/merchants/${merchantId}/orders`, { type: 'DELIVERY' }),
      );
    const pollAll = async (auth: Record<string, string>) =>
      okJson<{ eventId: string; orderId: string; createdAt: string }[]>(
        await api('/v1/events:polling?limit=200', { headers: auth }),
      );
    const ackAll = async (auth: Record<string, string>, ids: string[]) => {
      if (ids.length)
        await api('/v1/events/acknowledgment', {
          method: 'POST',
          headers: { ...auth, 'content-type': 'application/json' },
          body: JSON.stringify(ids.map((id) => ({ id }))),
        });
    };
    // the templates: one real order and its CREATED event
    const tpl = await createOrder();
    let tplEvents: { eventId: string; orderId: string }[] = [];
    for (let i = 0; i < 200 && !tplEvents.length; i++) {
      tplEvents = (await pollAll(c1.auth)).filter((e) => e.orderId === tpl.id);
      if (!tplEvents.length) await sleep(50);
    }
    if (!tplEvents.length) throw new Error('the template event never reached the feed');
    await ackAll(
      c1.auth,
      (await pollAll(c1.auth)).map((e) => e.eventId),
    );
    await ackAll(
      c2.auth,
      (await pollAll(c2.auth)).map((e) => e.eventId),
    );

    const dbUrl = new URL(pgServer.url);
    dbUrl.pathname = '/od_scale';
    const db = new pg.Client({ connectionString: dbUrl.toString() });
    db.on('error', () => {}); // the database is dropped (WITH FORCE) at the end
    await db.connect();
    const doc = await db.query<{ d: string; type: string; channel: string }>(
      'SELECT document::text AS d, type, channel FROM orders.orders WHERE id = $1',
      [tpl.id],
    );
    const ev = await db.query<{ channel: string; envelope: string }>(
      'SELECT channel, envelope FROM feed.events WHERE event_id = $1',
      [tplEvents[0].eventId],
    );
    log(`scale ${scale}: seeding (${Math.round(FULL.orders * scale).toLocaleString('en')} orders)`);
    const template = {
      orderId: tpl.id,
      document: doc.rows[0].d,
      type: doc.rows[0].type,
      channel: doc.rows[0].channel,
      eventId: tplEvents[0].eventId,
      eventChannel: ev.rows[0].channel,
      envelope: ev.rows[0].envelope,
    };
    const seeded = await seedPlatform(db, {
      scale,
      fromDay: 1,
      toDay: 30,
      measuredMerchantId: merchantId,
      template,
    });
    log(`seeded ${JSON.stringify(seeded)}`);
    const sizes = await tableSizes(db);

    const groups = stackGroups(s, pgServer, redis);
    const bareLoad = await load(bare.url, { path: '/' }, defaults);
    const figures: Figure[] = [];
    const measure = async (name: string, service: string, req: LoadOptions) => {
      let r: LoadResult | undefined;
      const cpuUs = await cpuPerRequest(groups(service), async () => {
        r = await load(s.publicUrl, req, defaults);
        return r;
      });
      const f = { name, ...r!, ratio: round((r!.reqPerSec / bareLoad.reqPerSec) * 100, 2), cpuUs };
      figures.push(f);
      log(
        `${name}: ${f.reqPerSec} req/s (${f.ratio}% of bare), p50 ${f.p50Ms} ms, p99 ${f.p99Ms} ms, cpu ${JSON.stringify(cpuUs)}`,
      );
      return f;
    };

    const emptyPoll = { path: '/v1/events:polling', headers: c1.auth };
    await measure('poll (empty)', 'feed', emptyPoll);
    for (let i = 0; i < 10; i++) await createOrder();
    let pending: { eventId: string }[] = [];
    for (let i = 0; i < 200 && pending.length < 10; i++) {
      pending = await pollAll(c2.auth);
      if (pending.length < 10) await sleep(50);
    }
    await ackAll(
      c1.auth,
      (await pollAll(c1.auth)).map((e) => e.eventId),
    );
    await measure('poll (10 events)', 'feed', { path: '/v1/events:polling', headers: c2.auth });
    await measure('ack (10 events)', 'feed', {
      path: '/v1/events/acknowledgment',
      method: 'POST',
      headers: { ...c2.auth, 'content-type': 'application/json' },
      body: JSON.stringify(pending.map((e) => ({ id: e.eventId }))),
    });
    const seededOrder = await db.query<{ id: string }>(
      `SELECT id FROM orders.orders WHERE merchant_id = $1 AND created_at < date_trunc('day', now())
       ORDER BY created_at LIMIT 1 OFFSET $2`,
      [merchantId, Math.floor(seeded.orders / (seeded.stores + 1) / 2)],
    );
    await measure('GET order', 'orders', { path: `/v1/orders/${seededOrder.rows[0].id}`, headers: c1.auth });
    await measure('order intake', 'orders', {
      path: `${s.adminUrl}/admin/v1/merchants/${merchantId}/orders`,
      method: 'POST',
      headers: { authorization: `Bearer ${s.adminToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ type: 'DELIVERY' }),
      connections: 10,
    });
    await ackAll(
      c1.auth,
      (await pollAll(c1.auth)).map((e) => e.eventId),
    );

    // the retention purge, with polling (autocannon) and intake (one at a time) running beside it;
    // days past retention are seeded just before each purge, after the feed's own hourly job has made
    // its first run (30-60 s after its start), which would otherwise take them first
    await sleep(Math.max(0, stackUpAt + 65_000 - Date.now()));
    const measurePurge = async (
      name: string,
      purgeWith: (pool: pg.Pool) => Promise<{ entries: number; events: number }>,
    ): Promise<PurgeFigure> => {
      await seedPlatform(db, {
        scale,
        fromDay: 31,
        toDay: 30 + Number(o.purgeDays),
        measuredMerchantId: merchantId,
        template,
      });
      await ackAll(
        c1.auth,
        (await pollAll(c1.auth)).map((e) => e.eventId),
      );
      const purgeable = await db.query<{ n: string }>(
        "SELECT count(*) AS n FROM feed.feed_entries WHERE acked_at < now() - interval '30 days'",
      );
      log(`${name}: ${purgeable.rows[0].n} acknowledged entries past 30 days; polling and intake beside it`);
      const pool = new pg.Pool({
        connectionString: dbUrl.toString(),
        options: '-c search_path=feed',
        max: 2,
        application_name: 'bench-purge',
      });
      const lockDb = new pg.Client({ connectionString: dbUrl.toString() });
      await lockDb.connect();
      const stopSampling = sampleLocks(lockDb, 'bench-purge');
      const intakeMs: number[] = [];
      let purging = true;
      const t0 = Date.now();
      let seconds = 0;
      const purge = purgeWith(pool).finally(() => {
        purging = false;
        seconds = (Date.now() - t0) / 1000;
      });
      const intakeLoop = (async () => {
        while (purging) {
          const a = Date.now();
          await createOrder();
          intakeMs.push(Date.now() - a);
        }
      })();
      const pollDuring = await load(s.publicUrl, { ...emptyPoll, warmup: 0 }, defaults);
      const purged = await purge;
      await intakeLoop;
      const locks = await stopSampling();
      await lockDb.end();
      await pool.end();
      const f: PurgeFigure = {
        seconds,
        entries: purged.entries,
        events: purged.events,
        entriesPerSec: Math.round(purged.entries / seconds),
        locks,
        sizesAfter: await tableSizes(db),
        pollDuring,
        intakeDuringMs: { p50: pct(intakeMs, 50), p99: pct(intakeMs, 99), max: Math.max(0, ...intakeMs) },
      };
      log(
        `${name}: ${seconds} s, ${JSON.stringify(purged)} (${f.entriesPerSec} entries/s); poll p99 beside it ${pollDuring.p99Ms} ms, intake p99 ${f.intakeDuringMs.p99} ms; locks ${JSON.stringify(locks)}`,
      );
      return f;
    };
    const purgeBaseline = o.purgeBaseline
      ? await measurePurge('purge (before the cursor)', (pool) => purgeBefore(pool, 30))
      : undefined;
    const purge = await measurePurge('purge', (pool) => runRetention(pool, { days: 30 }));

    // sustained lifecycle: workers create and drive orders to DONE; a poller measures event latency
    log('sustained: create, confirm and conclude orders with a poller measuring event latency');
    const until = Date.now() + duration * 2000;
    let concluded = 0;
    let actions = 0;
    const latency: number[] = [];
    const workers = Array.from({ length: 6 }, async () => {
      while (Date.now() < until) {
        const { id } = await createOrder();
        actions++;
        for (const a of ['confirm', 'startPreparation', 'readyForPickup', 'dispatch', 'delivered']) {
          const r = await api(`/v1/orders/${id}/${a}`, { method: 'POST', headers: c2.auth });
          await r.arrayBuffer();
          actions++;
        }
        concluded++;
      }
    });
    const poller = (async () => {
      while (Date.now() < until + 2000) {
        const events = await pollAll(c1.auth);
        const now = Date.now();
        for (const e of events) latency.push(now - Date.parse(e.createdAt));
        await ackAll(
          c1.auth,
          events.map((e) => e.eventId),
        );
        await sleep(20);
      }
    })();
    await Promise.all([...workers, poller]);
    const seconds = duration * 2;
    const run: ScaleRun = {
      scale,
      seeded,
      sizes,
      bareReqPerSec: bareLoad.reqPerSec,
      figures,
      purge,
      purgeBaseline,
      sustained: {
        seconds,
        ordersConcluded: concluded,
        ordersPerSec: round(concluded / seconds),
        actionsPerSec: round(actions / seconds),
        eventLatencyMs: { p50: pct(latency, 50), p99: pct(latency, 99), n: latency.length },
      },
    };
    await db.end();
    return run;
  } finally {
    await stack?.stop().catch(() => {});
    await bare.proc.stop();
    await Promise.all([pgServer, redis].map((x) => x.destroy().catch(() => {})));
  }
}

const runs: ScaleRun[] = [];
for (const scale of o.scales.split(',').map(Number))
  runs.push(
    await runScale(scale).catch((e) => {
      console.error(e);
      process.exit(1);
    }),
  );

const label = (r: ScaleRun) => `${r.seeded.orders.toLocaleString('en')} orders`;
const names = runs[0].figures.map((f) => f.name);
const out = path.join(RESULTS_DIR, 'scale-latest.json');
writeFileSync(out, JSON.stringify({ at: new Date().toISOString(), runs }, null, 2));
writeFileSync(
  path.join(RESULTS_DIR, 'scale-latency.svg'),
  lineChart({
    title: 'p50 / p99 against data size',
    yLabel: 'ms',
    x: runs.map(label),
    series: names.flatMap((n) => [
      { name: `${n} p50`, values: runs.map((r) => r.figures.find((f) => f.name === n)?.p50Ms ?? null) },
      { name: `${n} p99`, values: runs.map((r) => r.figures.find((f) => f.name === n)?.p99Ms ?? null) },
    ]),
  }),
);
writeFileSync(
  path.join(RESULTS_DIR, 'scale-cpu.svg'),
  stackedBars({
    title: 'CPU per request by process',
    yLabel: 'µs per request',
    bars: runs.flatMap((r) =>
      r.figures.map((f) => {
        const { total: _total, ...parts } = f.cpuUs ?? {};
        return { label: `${f.name} @${r.scale}`, parts };
      }),
    ),
  }),
);

// the summary: every figure at every scale, ratios and CPU by process
const rows = names.map((n) => {
  const cells = runs.map((r) => {
    const f = r.figures.find((x) => x.name === n)!;
    return `${f.reqPerSec} req/s (${f.ratio}%), p50 ${f.p50Ms} / p99 ${f.p99Ms} ms, ${f.cpuUs?.total} µs CPU`;
  });
  return `| ${n} | ${cells.join(' | ')} |`;
});
console.log(`| figure | ${runs.map(label).join(' | ')} |`);
console.log(`|---|${runs.map(() => '---').join('|')}|`);
for (const r of rows) console.log(r);
for (const r of runs) {
  console.log(
    `\nscale ${r.scale}: bare fastify ${r.bareReqPerSec} req/s; seeded ${JSON.stringify(r.seeded)}`,
  );
  console.log(
    `CPU µs per request: ${JSON.stringify(Object.fromEntries(r.figures.map((f) => [f.name, f.cpuUs])))}`,
  );
  console.log(`purge: ${JSON.stringify(r.purge)}`);
  if (r.purgeBaseline) console.log(`purge before the cursor: ${JSON.stringify(r.purgeBaseline)}`);
  console.log(`sustained: ${JSON.stringify(r.sustained)}`);
  console.log(`sizes (MB): ${JSON.stringify(r.sizes)}`);
}
log(`results: ${path.relative(process.cwd(), out)} and scale-latency.svg, scale-cpu.svg beside it`);
