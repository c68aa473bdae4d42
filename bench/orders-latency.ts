// Order action -> visible in polling, segment by segment:
//   npx tsx bench/orders-latency.ts [--orders 200] [--warmup 0] [--seconds 8] [--fsync on|off] [--root <checkout>]
//     [--rate <n>] [--gc] [--node-flags=<flags>]
// The stack as production runs it (one process per service, bench/lib/stack.ts), on a PostgreSQL,
// Redis and NATS of its own; PostgreSQL with fsync on (durability as deployed) and commit timestamps.
// A point of sale polls every ~1 ms and acknowledges what it gets. After an optional warm-up
// (--warmup confirms back to back, not measured), two phases:
//   idle: one confirm at a time, 20 ms apart;
//   half load: the saturating confirm rate is measured first (closed loop, 8 clients), then confirms
//   are sent open-loop, evenly spaced, at half of it.
// Per CONFIRMED event, from clocks of one machine (wall time: the bench's, PostgreSQL's commit
// timestamps, arrival of bus messages at the bench):
//   action   request sent -> orders' transaction committed (commit timestamp of its history row)
//   reply    commit -> 202 received
//   relay    commit -> the event published on the bus (a subscriber as the panel listens)
//   consumer published -> feed's transaction committed (commit timestamp of the stored event)
//   storeTx  of which the feed's transaction (its start: events.stored_at, millisecond precision)
//   announce feed commit -> the store's pending announcement on the bus (what gateways listen to)
//   poll     announcement -> the event in a poll's answer
//   total    request sent -> the event in a poll's answer
// A commit timestamp is taken before the WAL flush: the orders commit's flush counts in reply and
// relay, the feed's in announce.
// The database is ANALYZEd before each phase, as autovacuum has done long before in production: on a
// fresh database that grows by thousands of rows in a minute, the services' prepared statements keep
// the generic plans they got while the tables were empty (sequential scans of outbox, events and feed
// entries on every event) until autovacuum's first analyze, which the bench would otherwise race.
// `--root <checkout>` runs the services of another checkout (e.g. main) under this bench: run two at
// once, one with it, to compare code in one machine state (with one `--rate` for both). Results: bench/results/orders-latency-*.json.
// `--gc`: every collection of every service (bench/lib/gc-trace.mjs) and those within each confirm's
// window; `--node-flags=<flags>`: node flags added to the services'.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { names } from '@od/contracts';
import { Command } from 'commander';
import pg from 'pg';
import { ownPostgres, ownRedis } from '../scripts/chaos/servers.ts';
import { cpuSnapshot, type ProcessGroups, processTree } from './lib/cpu.ts';
import { okJson, pollingCredential } from './lib/credential.ts';
import { gcOfPhase, readGcTraces } from './lib/gc-report.ts';
import { pidOf } from './lib/proc.ts';
import { RESULTS_DIR, startProcessStack } from './lib/stack.ts';

const o = new Command('bench:orders-latency')
  .option('--orders <n>', 'confirms of the idle phase', '200')
  .option(
    '--warmup <n>',
    'confirms sent back to back (8 clients) before the idle phase, not measured: the path optimized as in a stack that has served traffic (default 0: a stack just started)',
    '0',
  )
  .option('--seconds <s>', 'seconds of the half-load phase (and of the saturation probe)', '8')
  .option('--fsync <on|off>', "the bench's PostgreSQL fsync", 'on')
  .option('--root <checkout>', 'the checkout whose services run (default: this one)')
  .option('--rate <n>', 'confirms/s of the half-load phase (default: half the measured saturating rate)')
  .option(
    '--gc',
    'record every collection of every service (bench/lib/gc-trace.mjs) and report those on the path',
  )
  .option('--node-flags <flags>', "node flags added after the images' (e.g. --max-semi-space-size=16)")
  .option('--label <name>', 'name of the results file (bench/results/orders-latency-<label>.json)', 'latest')
  .parse()
  .opts<{
    orders: string;
    warmup: string;
    seconds: string;
    fsync: string;
    root?: string;
    rate?: string;
    gc?: boolean;
    nodeFlags?: string;
    label: string;
  }>();
const log = (m: string) =>
  process.stderr.write(`[orders-latency ${new Date().toISOString().slice(11, 19)}] ${m}\n`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** wall-clock milliseconds with sub-millisecond precision (comparable with PostgreSQL's clock) */
const wall = () => performance.timeOrigin + performance.now();
const pct = (xs: number[], p: number) => {
  const s = xs.filter((x) => Number.isFinite(x)).sort((a, b) => a - b);
  return s.length ? Math.round(s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] * 100) / 100 : NaN;
};

const [pgServer, redis] = await Promise.all([
  ownPostgres({ fsync: o.fsync, track_commit_timestamp: 'on' }),
  ownRedis(),
]);
process.env.DATABASE_URL = pgServer.url;
process.env.REDIS_URL = redis.url;
const gcDir = o.gc ? mkdtempSync(path.join(os.tmpdir(), 'od-bench-gc-')) : undefined;
const stack = await startProcessStack({
  prefix: 'latency',
  log,
  ...(gcDir ? { gcTraceDir: gcDir } : {}),
  ...(o.nodeFlags ? { nodeFlags: o.nodeFlags.split(/\s+/).filter(Boolean) } : {}),
  ...(o.root ? { root: path.resolve(o.root) } : {}),
});
const db = new pg.Client({ connectionString: stack.databaseUrl });
// CPU of every process of the stack, of its servers and of the bench itself (the point of sale) per phase
const pgPid = pidOf('postgres', `-p ${pgServer.port}`);
const redisPid = pidOf('redis-server', String(redis.port));
const groups: ProcessGroups = {
  bench: () => [process.pid],
  ...Object.fromEntries([...stack.procs].map(([name, p]) => [name, () => [p.pid]])),
  nats: () => [stack.nats.pid],
  postgres: () => processTree(pgPid),
  redis: () => [redisPid],
};
/** CPU % of one core per process group between `start()` and the call of what it returns */
const cpuLoad = () => {
  const a = cpuSnapshot(groups);
  const t0 = performance.now();
  return () => {
    const b = cpuSnapshot(groups);
    const wallUs = (performance.now() - t0) * 1000;
    const pct = Object.fromEntries(
      Object.keys(a).map((k) => [k, Math.round(((b[k] - a[k]) / wallUs) * 1000) / 10]),
    );
    return { ...pct, total: Math.round(Object.values(pct).reduce((n, v) => n + v, 0) * 10) / 10 };
  };
};
const buses: NatsConnection[] = [];
try {
  await db.connect();
  const admin = stack.admin;
  const api = (p: string, init: RequestInit = {}) => fetch(stack.publicUrl + p, init);
  const { id: merchantId } = await okJson<{ id: string }>(
    await admin('POST', '/admin/v1/merchants', { name: 'Latência', test: true }),
  );
  const actor = await pollingCredential(stack.publicUrl, admin, merchantId, 'actions');
  const pos = await pollingCredential(stack.publicUrl, admin, merchantId, 'point of sale');
  const actorAuth = { authorization: `Bearer ${actor.token}` };
  const posAuth = { authorization: `Bearer ${pos.token}` };

  // the bus, as the panel (order events) and a gateway (pending announcements) hear it
  const n = names('latency');
  const published = new Map<string, number>();
  const announced: number[] = [];
  const listen = async (identity: 'panel' | 'gateway', subject: string, on: (data: Uint8Array) => void) => {
    const nc = await connect({ servers: stack.nats.url, ...stack.natsUser(identity), noAsyncTraces: true });
    buses.push(nc);
    nc.subscribe(subject, { callback: (_e, m) => on(m.data) });
    await nc.flush();
  };
  await listen('panel', n.orderEventSubjects, (data) => {
    const t = wall();
    const m = JSON.parse(new TextDecoder().decode(data)) as {
      envelope: { orderId: string; eventType: string };
    };
    if (m.envelope.eventType === 'CONFIRMED') published.set(m.envelope.orderId, t);
  });
  await listen('gateway', n.feedPending, () => announced.push(wall()));

  const createOrders = async (count: number) => {
    const ids: string[] = [];
    await Promise.all(
      Array.from({ length: 6 }, async () => {
        while (ids.length < count) {
          ids.push('');
          const r = await admin('POST', `/admin/v1/merchants/${merchantId}/orders`, { type: 'DELIVERY' });
          ids[ids.indexOf('')] = (await okJson<{ id: string }>(r)).id;
        }
      }),
    );
    return ids;
  };

  // the point of sale: polls every ~1 ms, acknowledges; CREATED events are acknowledged too. Through
  // node:http on one kept-alive socket rather than fetch: fetch cost the bench ~22 % of a core at
  // this rate, on the 2 cores the stack's own path runs on (the quiet CPU line of the log).
  const posAgent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const posRequest = (method: string, p: string, body?: string) =>
    new Promise<Buffer>((resolve, reject) => {
      const req = http.request(
        stack.publicUrl + p,
        {
          method,
          agent: posAgent,
          headers: body ? { ...posAuth, 'content-type': 'application/json' } : posAuth,
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () =>
            res.statusCode !== undefined && res.statusCode >= 200 && res.statusCode < 300
              ? resolve(Buffer.concat(chunks))
              : reject(new Error(`${method} ${p} answered ${res.statusCode}`)),
          );
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  const visible = new Map<string, number>();
  let polling = true;
  let polls = 0;
  const poller = (async () => {
    while (polling) {
      polls++;
      const page = await posRequest('GET', '/v1/events:polling?limit=200');
      const events = JSON.parse(page.toString()) as { eventId: string; orderId: string; eventType: string }[];
      const t = wall();
      for (const e of events)
        if (e.eventType === 'CONFIRMED' && !visible.has(e.orderId)) visible.set(e.orderId, t);
      if (events.length)
        await posRequest(
          'POST',
          '/v1/events/acknowledgment',
          JSON.stringify(events.map((e) => ({ id: e.eventId }))),
        );
      else await sleep(1);
    }
  })();
  const sent = new Map<string, number>();
  const answered = new Map<string, number>();
  const confirm = async (id: string) => {
    sent.set(id, wall());
    const r = await api(`/v1/orders/${id}/confirm`, { method: 'POST', headers: actorAuth });
    await r.arrayBuffer();
    answered.set(id, wall());
    if (r.status !== 202) throw new Error(`confirm answered ${r.status}`);
  };
  const settle = async (ids: string[]) => {
    const until = Date.now() + 20_000;
    while (ids.some((id) => !visible.has(id)) && Date.now() < until) await sleep(50);
  };

  /** p50/p99 of each segment of `ids` (their events must be visible: settle first) */
  const segments = async (ids: string[]) => {
    const orders = await db.query<{ id: string; commit: number }>(
      `SELECT order_id AS id, extract(epoch FROM pg_xact_commit_timestamp(xmin)) * 1000 AS commit
       FROM orders.order_history WHERE event_type = 'CONFIRMED' AND order_id = ANY($1::uuid[])`,
      [ids],
    );
    const feed = await db.query<{ id: string; commit: number; started: number }>(
      `SELECT order_id AS id, extract(epoch FROM pg_xact_commit_timestamp(xmin)) * 1000 AS commit,
         extract(epoch FROM stored_at) * 1000 AS started
       FROM feed.events WHERE event_type = 'CONFIRMED' AND order_id = ANY($1::uuid[])`,
      [ids],
    );
    const oc = new Map(orders.rows.map((r) => [r.id, Number(r.commit)]));
    const fc = new Map(
      feed.rows.map((r) => [r.id, { commit: Number(r.commit), started: Number(r.started) }]),
    );
    const firstAnnouncementAfter = (t: number) => announced.find((a) => a >= t) ?? NaN;
    const seg = {
      action: [] as number[],
      reply: [] as number[],
      relay: [] as number[],
      consumer: [] as number[],
      storeTx: [] as number[],
      announce: [] as number[],
      poll: [] as number[],
      total: [] as number[],
    };
    for (const id of ids) {
      const s = sent.get(id) ?? NaN;
      const c = oc.get(id) ?? NaN;
      const p = published.get(id) ?? NaN;
      const f = fc.get(id);
      const a = f ? firstAnnouncementAfter(f.commit) : NaN;
      const v = visible.get(id) ?? NaN;
      seg.action.push(c - s);
      seg.reply.push((answered.get(id) ?? NaN) - c);
      seg.relay.push(p - c);
      seg.consumer.push((f?.commit ?? NaN) - p);
      seg.storeTx.push((f?.commit ?? NaN) - (f?.started ?? NaN));
      seg.announce.push(a - (f?.commit ?? NaN));
      seg.poll.push(v - a);
      seg.total.push(v - s);
    }
    const gc = gcDir
      ? gcOfPhase(
          readGcTraces(gcDir, stack.procs.keys()),
          ids.map((id) => ({ id, from: sent.get(id) ?? NaN, to: visible.get(id) ?? NaN })),
        )
      : undefined;
    return {
      ...(gc ? { gc } : {}),
      confirms: ids.length,
      visible: ids.filter((id) => visible.has(id)).length,
      ...(Object.fromEntries(
        Object.entries(seg).map(([k, xs]) => [k, { p50: pct(xs, 50), p99: pct(xs, 99) }]),
      ) as Record<keyof typeof seg, { p50: number; p99: number }>),
    };
  };

  const idleN = Number(o.orders);
  const seconds = Number(o.seconds);
  /** `ids` confirmed by 8 clients back to back; how many were sent before `until` (ms epoch) */
  const confirmAll = async (ids: string[], until = Number.POSITIVE_INFINITY) => {
    let next = 0;
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (Date.now() < until && next < ids.length) await confirm(ids[next++]);
      }),
    );
    return next;
  };
  const warmN = Number(o.warmup);
  if (warmN > 0) {
    // every service's code on the path reaches V8's optimized tiers only after thousands of runs:
    // without this the idle phase measures a stack that has never served a request
    log(`warm-up: ${warmN} confirms, not measured`);
    const warmIds = await createOrders(warmN);
    await confirmAll(warmIds);
    await settle(warmIds);
  }
  log(`creating ${idleN} orders for the idle phase`);
  const idleIds = await createOrders(idleN);
  await db.query('ANALYZE');
  const quiet = cpuLoad();
  const polls0 = polls;
  await sleep(2000);
  const quietCpu = { ...quiet(), pollsPerSec: (polls - polls0) / 2 };
  log(`CPU % with the point of sale polling, no confirms: ${JSON.stringify(quietCpu)}`);
  log('idle: one confirm at a time, 20 ms apart');
  const idleLoad = cpuLoad();
  for (const id of idleIds) {
    await confirm(id);
    await sleep(20);
  }
  const idleCpu = idleLoad();
  await settle(idleIds);
  const idle = { ...(await segments(idleIds)), cpuPct: idleCpu };
  log(`idle: ${JSON.stringify(idle.total)}`);
  if (idle.gc) log(`idle collections: ${JSON.stringify(idle.gc)}`);

  // saturation: 8 clients confirm back to back for `seconds`
  log('measuring the saturating confirm rate');
  const probeIds = await createOrders(Math.max(400, seconds * 250));
  await db.query('ANALYZE');
  await sleep(2000);
  const t0 = Date.now();
  const next = await confirmAll(probeIds, Date.now() + seconds * 1000);
  const saturating = (next / (Date.now() - t0)) * 1000;
  if (next >= probeIds.length) log('warning: the probe ran out of orders; the saturating rate is a floor');
  // two stacks compared in one run: the same rate for both (each probe sees a different moment)
  const rate = o.rate ? Number(o.rate) : Math.max(1, Math.round(saturating / 2));
  log(`saturating ~${Math.round(saturating)} confirms/s; half load ${rate}/s for ${seconds} s`);
  await settle(probeIds.slice(0, next));

  const halfIds = await createOrders(rate * seconds);
  await db.query('ANALYZE');
  await sleep(2000);
  const halfLoad = cpuLoad();
  const start = performance.now();
  const inflight: Promise<void>[] = [];
  for (let k = 0; k < halfIds.length; k++) {
    const due = start + (k * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 1) await sleep(wait);
    inflight.push(confirm(halfIds[k]));
  }
  await Promise.all(inflight);
  const halfCpu = halfLoad();
  await settle(halfIds);
  const half = { ...(await segments(halfIds)), cpuPct: halfCpu };
  log(`half load: ${JSON.stringify(half.total)}`);
  polling = false;
  await poller;
  posAgent.destroy();
  const result = JSON.stringify(
    {
      root: o.root ? path.resolve(o.root) : '.',
      at: new Date().toISOString(),
      fsync: o.fsync,
      ...(o.nodeFlags ? { nodeFlags: o.nodeFlags } : {}),
      saturatingConfirmsPerSec: Math.round(saturating),
      quietCpuPct: quietCpu,
      idle,
      half: { rate, ...half },
    },
    null,
    2,
  );
  writeFileSync(path.join(RESULTS_DIR, `orders-latency-${o.label}.json`), `${result}\n`);
  if (gcDir) {
    // the idle collections (gc() calls) of the whole run, start included: when and how long
    const forced = readGcTraces(gcDir, stack.procs.keys()).filter((g) => g.forced);
    const t0 = Math.min(...[...sent.values()]);
    log(
      `forced collections, s from the first confirm: ${forced.map((g) => `${g.proc} ${((g.start - t0) / 1000).toFixed(1)} s ${g.ms.toFixed(1)} ms`).join(', ')}`,
    );
  }
  console.log(result);
} finally {
  await Promise.all(buses.map((nc) => nc.close().catch(() => {})));
  await db.end().catch(() => {});
  await stack.stop();
  await Promise.all([pgServer.destroy(), redis.destroy()]);
  if (gcDir) rmSync(gcDir, { recursive: true, force: true });
}
