// `npx tsx bench/hot-path.ts [--duration 5] [--warmup s] [--rounds 2] [--limits on|off] [--rate n] [--prof] [--tracing | --tracing-ab] [--tracing-ratio p] [--node-flags f]`
// CPU µs per request of every process of the stack (gateway, feed/orders, nats-server, PostgreSQL,
// Redis) on the three requests a platform pays for most: the empty poll, a poll answering 10 events
// and GET order, beside bare fastify in the same run. Its own PostgreSQL and Redis on spare ports
// (scripts/chaos/servers.ts), so no other work on the machine is counted. With rate limits on, the
// load cycles through many credentials and the limiter's windows are emptied before each figure, so
// each credential stays below 600 calls a minute (warm-up and run share the window: up to
// credentials x 600 / (1 + duration) req/s; the empty poll, the fastest, has three times as many): the
// figure is the limiter's work, not cheap 429s (a figure with 429s says so). `--prof` starts gateway, feed and orders with
// --cpu-prof (profiles in bench/results/prof/) and prints the top self-time functions.
// `--warmup` (default 20 s per figure and stack, before round 1, not measured): a stack measured as
// soon as it starts runs code V8 has not optimized yet, most of all code that only some requests run
// (sampled traces: tracing at 10 % measured +19 % CPU cold and +2-5 % warm, docs/operations.md).

import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { IDLE_GC_EVERY_MS } from '@od/runtime';
import type { Request } from 'autocannon';
import { Command } from 'commander';
import { ownPostgres, ownRedis } from '../scripts/chaos/servers.ts';
import { cpuPerRequest, stackGroups } from './lib/cpu.ts';
import { okJson, pollingCredential } from './lib/credential.ts';
import { load } from './lib/load.ts';
import { rss } from './lib/proc.ts';
import {
  deleteRedisKeys,
  type ProcessStack,
  RESULTS_DIR,
  startBare,
  startProcessStack,
} from './lib/stack.ts';

const o = new Command('bench:hot-path')
  .option('--duration <s>', 'seconds of load per figure', '5')
  .option('--connections <n>', 'autocannon connections', '20')
  .option('--rounds <n>', 'rounds of the three figures (the machine is noisy: take the lowest)', '2')
  .option('--limits <on|off>', 'rate limiter', 'on')
  .option(
    '--warmup <s>',
    'seconds of unmeasured load per figure and stack before round 1 (0: measure a stack that has served nothing; code that runs on few requests, e.g. sampled traces, reaches optimized code only after minutes)',
    '20',
  )
  .option(
    '--credentials <n>',
    'credentials cycled by each figure (the empty poll: three times as many)',
    '200',
  )
  .option(
    '--node-options <s>',
    'NODE_OPTIONS of every service (only what node allows there: --trace-gc is refused, exit 9)',
  )
  .option(
    '--open-responses',
    'measurement only: nats-server without allow_responses (any inbox open to every identity); with --baseline, on this stack only',
  )
  .option('--tracing', 'services export traces (OTLP/HTTP to a local sink), 10% sampled (--tracing-ratio)')
  .option(
    '--tracing-ratio <p>',
    "sampling ratio of --tracing/--tracing-ab (0: the SDK loaded, no span: what its presence costs; none: no tracing at all, the two stacks' own difference)",
    '0.1',
  )
  .option(
    '--tracing-ab',
    'also run this checkout with tracing on (as --tracing), figure by figure beside this one: on/off in one run',
  )
  .option(
    '--rate <n>',
    'requests a second per figure (autocannon overallRate) instead of as many as the connections carry: stacks compared at the same rate',
  )
  .option(
    '--span-census',
    'measurement only: traces exported as JSON and counted (spans and traces by service and span name) at the end',
  )
  .option(
    '--node-flags <flags>',
    "measurement only: node flags after the images' for every stack's services (e.g. --trace-deopt, which NODE_OPTIONS refuses)",
  )
  .option('--prof', 'write --cpu-prof profiles of gateway, feed and orders and summarize them')
  .option(
    '--baseline <dir>',
    'also run a stack from this checkout (e.g. main), figure by figure beside this one',
  )
  .option(
    '--env <K=V,...>',
    "extra environment of this stack's services only (e.g. MALLOC_TRIM_THRESHOLD_=131072): with --baseline . an A/B of process settings",
  )
  .option('--out <file>', 'JSON results', path.join(RESULTS_DIR, 'hot-path.json'))
  .parse()
  .opts<{
    duration: string;
    warmup: string;
    connections: string;
    rounds: string;
    limits: string;
    credentials: string;
    prof?: boolean;
    rate?: string;
    tracing?: boolean;
    tracingAb?: boolean;
    tracingRatio: string;
    openResponses?: boolean;
    baseline?: string;
    nodeOptions?: string;
    nodeFlags?: string;
    spanCensus?: boolean;
    env?: string;
    out: string;
  }>();
const log = (m: string) =>
  process.stderr.write(`[hot-path ${new Date().toISOString().slice(11, 19)}] ${m}\n`);
const defaults = { duration: Number(o.duration), connections: Number(o.connections) };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const profDir = path.join(RESULTS_DIR, 'prof');
if (o.prof) {
  rmSync(profDir, { recursive: true, force: true });
  mkdirSync(profDir, { recursive: true });
}

// --tracing: a sink that accepts and drops the OTLP exports (a collector elsewhere in production)
// --span-census: the exports as JSON, spans counted by service and name with their traces
let sinkRequests = 0;
const census = new Map<string, { spans: number; traces: Set<string> }>();
const sink = http.createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => o.spanCensus && chunks.push(c));
  req.on('end', () => {
    sinkRequests++;
    if (o.spanCensus) countSpans(JSON.parse(Buffer.concat(chunks).toString()));
    res.writeHead(200, { 'content-type': 'application/x-protobuf' }).end();
  });
});
type OtlpJson = {
  resourceSpans: {
    resource: { attributes: { key: string; value: { stringValue?: string } }[] };
    scopeSpans: { spans: { name: string; traceId: string }[] }[];
  }[];
};
function countSpans(body: OtlpJson) {
  for (const rs of body.resourceSpans) {
    const service = rs.resource.attributes.find((a) => a.key === 'service.name')?.value.stringValue;
    for (const ss of rs.scopeSpans)
      for (const span of ss.spans) {
        const key = `${service} ${span.name}`;
        const c = census.get(key) ?? { spans: 0, traces: new Set<string>() };
        c.spans++;
        c.traces.add(span.traceId);
        census.set(key, c);
      }
  }
}
await new Promise<void>((r) => sink.listen(0, '127.0.0.1', r));
const otelEnv: Record<string, string> = {
  OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${(sink.address() as AddressInfo).port}`,
  OTEL_EXPORTER_OTLP_PROTOCOL: o.spanCensus ? 'http/json' : 'http/protobuf',
  OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
  OTEL_TRACES_SAMPLER_ARG: o.tracingRatio,
  ...(o.tracingRatio === 'none' ? { OTEL_SDK_DISABLED: 'true' } : {}),
  // the batch processor's settings of the bench's own environment (e.g. OTEL_BSP_MAX_EXPORT_BATCH_SIZE)
  ...Object.fromEntries(
    Object.entries(process.env).filter(
      (e): e is [string, string] => e[0].startsWith('OTEL_BSP_') && e[1] !== undefined,
    ),
  ),
};
const tracingEnv = o.tracing ? otelEnv : {};
const [pgServer, redis] = await Promise.all([ownPostgres(), ownRedis()]);
process.env.DATABASE_URL = pgServer.url;
process.env.REDIS_URL = redis.url;
const bare = await startBare();
const thisEnv = Object.fromEntries(
  (o.env ?? '')
    .split(',')
    .filter(Boolean)
    .map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)]),
);
const nodeFlags = o.nodeFlags ? { nodeFlags: o.nodeFlags.split(/\s+/).filter(Boolean) } : {};
const stackEnv = {
  // the setup issues hundreds of tokens (60 a minute per IP): the limiter goes on after it
  RATE_LIMIT_ENABLED: 'false',
  ...tracingEnv,
  ...(o.prof || o.nodeOptions
    ? {
        NODE_OPTIONS: [o.prof ? `--cpu-prof --cpu-prof-dir=${profDir}` : '', o.nodeOptions ?? ''].join(' '),
      }
    : {}),
};
// --baseline: a second stack from another checkout, on the same PostgreSQL and Redis servers (idle
// while the other is measured: its idle CPU is taken off like any other)
const stacks: { name: string; stack: ProcessStack }[] = [];
/** --prof: `<stack>/<service>` of each pid seen (a profile's file name carries its process's pid) */
const profOf = new Map<number, string>();
const notePids = () => {
  for (const s of stacks) for (const [name, p] of s.stack.procs) profOf.set(p.pid, `${s.name}/${name}`);
};
// the stacks first: stopping one deletes its keys in Redis
const stopAll = async () => {
  await Promise.allSettled([...stacks.map((s) => s.stack.stop()), bare.proc.stop()]);
  await Promise.allSettled([pgServer.destroy(), redis.destroy()]);
};
try {
  stacks.push({
    name: 'this',
    stack: await startProcessStack({
      ...nodeFlags,
      prefix: 'hotpath',
      log,
      openResponses: o.openResponses,
      env: { ...stackEnv, ...thisEnv },
    }),
  });
  if (o.baseline)
    stacks.push({
      name: 'baseline',
      stack: await startProcessStack({
        ...nodeFlags,
        prefix: 'hotbase',
        log,
        // --open-responses applies to this stack only: `--baseline .` measures what allow_responses costs
        openResponses: false,
        env: stackEnv,
        root: path.resolve(o.baseline),
      }),
    });
  // --tracing-ab: runs minutes apart on a shared machine differ by more than the few % looked for
  if (o.tracingAb)
    stacks.push({
      name: 'tracing',
      stack: await startProcessStack({
        ...nodeFlags,
        prefix: 'hottrace',
        besideAnother: true,
        log,
        openResponses: o.openResponses,
        env: { ...stackEnv, ...otelEnv },
      }),
    });
} catch (e) {
  await stopAll();
  throw e;
}
// Ctrl-C / timeout: stop the stacks and the servers before leaving
for (const sig of ['SIGINT', 'SIGTERM'] as const)
  process.once(sig, () => {
    void stopAll().then(() => process.exit(130));
  });
type Row = { name: string; stack: string; reqPerSec: number; cpuUs: { total: number; gateway: number } };
/** --tracing-ab: per figure, medians over the rounds of CPU µs per request and req/s, on / off */
function tracingMedians(rows: Row[], figures: string[]): void {
  const median = (xs: number[]) => {
    const s = [...xs].sort((a, b) => a - b);
    return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
  };
  const pct = (a: number, b: number) => `${((a / b) * 100).toFixed(1)}%`;
  for (const name of figures) {
    const m = (stack: string, f: (r: Row) => number) =>
      median(rows.filter((r) => r.name === name && r.stack === stack).map(f));
    const [cpu, gw, rps] = [
      (r: Row) => r.cpuUs.total,
      (r: Row) => r.cpuUs.gateway,
      (r: Row) => r.reqPerSec,
    ].map((f) => [m('tracing', f), m('this', f)]);
    log(
      `tracing on/off, ${name}: CPU µs ${cpu[0]} / ${cpu[1]} (${pct(cpu[0], cpu[1])}), gateway ${gw[0]} / ${gw[1]}, ` +
        `req/s ${rps[0]} / ${rps[1]} (${pct(rps[0], rps[1])})`,
    );
  }
}
const results: Record<string, unknown>[] = [];
const memory: Record<string, unknown> = {};
const rssOf = (stack: ProcessStack, k: 'rssMb' | 'anonMb' = 'rssMb') =>
  Object.fromEntries([...stack.procs].map(([name, p]) => [name, rss(p.pid)?.[k]]));

/** Merchants, credentials and orders of the three figures in one stack; the limiter on after it. */
async function prepare(stack: ProcessStack) {
  const admin = (method: string, p: string, body?: unknown) =>
    fetch(stack.adminUrl + p, {
      method,
      headers: { authorization: `Bearer ${stack.adminToken}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(30_000),
    }).catch((e) => {
      throw new Error(`admin ${method} ${p}: ${(e as Error).message}`);
    });
  const api = (p: string, init: RequestInit = {}) =>
    fetch(stack.publicUrl + p, { ...init, signal: AbortSignal.timeout(30_000) }).catch((e) => {
      throw new Error(`GET/POST ${p}: ${(e as Error).message}`);
    });
  const merchant = async () =>
    (await okJson<{ id: string }>(await admin('POST', '/admin/v1/merchants', { name: 'Hot', test: true })))
      .id;
  const tokens = async (merchantId: string, n: number) => {
    const out: string[] = [];
    for (let i = 0; i < n; i++) {
      // an admin call that times out (seen on a loaded machine: a credential barrier that never
      // answered) is tried once more; a store keeps room for it (PER_STORE < the cap of 20)
      const one = () => pollingCredential(stack.publicUrl, admin, merchantId, `c${i}`);
      out.push(
        (
          await one().catch((e) => {
            log(`retrying: ${(e as Error).message}`);
            return one();
          })
        ).token,
      );
    }
    return out;
  };
  // a store holds at most 20 credentials: the figures' credentials spread over stores of 19
  const PER_STORE = 19;
  const stores = Math.max(1, Math.ceil(Number(o.credentials) / PER_STORE));
  // the empty poll runs at 4-5 times the others' rate (~24,000 req/s on a quiet machine): 209
  // credentials carried ~21,000 req/s over warm-up and run, and the rest were cheap 429s
  const emptyStores = 3 * stores;
  const order = async (merchantId: string) =>
    (
      await okJson<{ id: string }>(
        await admin('POST', `/admin/v1/merchants/${merchantId}/orders`, { type: 'DELIVERY' }),
      )
    ).id;
  const pending = async (token: string) =>
    (
      await okJson<unknown[]>(
        await api('/v1/events:polling?limit=200', { headers: { authorization: `Bearer ${token}` } }),
      )
    ).length;
  const reqs = (toks: string[], p: (i: number) => string): Request[] =>
    toks.map((t, i) => ({ method: 'GET', path: p(i), headers: { authorization: `Bearer ${t}` } }));
  const emptyTokens: string[] = [];
  const busyTokens: string[] = [];
  const orderTokens: string[] = [];
  const orderOf: string[] = [];
  for (let s = 0; s < emptyStores; s++) emptyTokens.push(...(await tokens(await merchant(), PER_STORE)));
  log(`setup: ${emptyTokens.length} credentials of the empty poll`);
  for (let s = 0; s < stores; s++) {
    log(`setup: stores ${s * 2 + 1}-${s * 2 + 2} of ${stores * 2}`);
    // the busy store: 10 orders, so 10 CREATED events pending for each of its credentials
    const busy = await merchant();
    const toks = await tokens(busy, PER_STORE);
    busyTokens.push(...toks);
    for (let i = 0; i < 10; i++) await order(busy);
    for (let i = 0; (await pending(toks[PER_STORE - 1])) < 10; i++) {
      if (i > 200) throw new Error('the 10 events never reached the feed');
      await sleep(50);
    }
    // GET order: a store of its own (its credentials' limits are not shared with the poll figures)
    const withOrder = await merchant();
    const id = await order(withOrder);
    for (const t of await tokens(withOrder, PER_STORE)) {
      orderTokens.push(t);
      orderOf.push(id);
    }
  }
  if (o.limits === 'on') await stack.restartGateway({ RATE_LIMIT_ENABLED: 'true' });
  const groups = stackGroups(stack, pgServer, redis);
  return [
    { name: 'poll (empty)', service: 'feed', requests: reqs(emptyTokens, () => '/v1/events:polling') },
    { name: 'poll (10 events)', service: 'feed', requests: reqs(busyTokens, () => '/v1/events:polling') },
    { name: 'GET order', service: 'orders', requests: reqs(orderTokens, (i) => `/v1/orders/${orderOf[i]}`) },
  ].map((f) => ({ ...f, groups: groups(f.service) }));
}

/** Each request once, 50 at a time. */
async function prime(base: string, requests: Request[]) {
  for (let i = 0; i < requests.length; i += 50)
    await Promise.all(
      requests.slice(i, i + 50).map(async (q) => {
        const r = await fetch(base + q.path, {
          headers: q.headers as Record<string, string>,
          signal: AbortSignal.timeout(30_000),
        });
        await r.arrayBuffer();
      }),
    );
}

try {
  // idle: settled after start (no request yet)
  await sleep(5000);
  memory.idleRssMb = rssOf(stacks[0].stack);
  memory.idleAnonMb = rssOf(stacks[0].stack, 'anonMb');
  log(`idle RSS MB: ${JSON.stringify(memory.idleRssMb)}`);
  log(`  of it anonymous (the rest: node's file-backed pages): ${JSON.stringify(memory.idleAnonMb)}`);
  for (const s of stacks.slice(1)) {
    memory[`${s.name}IdleRssMb`] = rssOf(s.stack);
    log(
      `[${s.name}] idle RSS MB: ${JSON.stringify(rssOf(s.stack))}, anonymous ${JSON.stringify(rssOf(s.stack, 'anonMb'))}`,
    );
  }
  const prepared = [];
  notePids();
  for (const s of stacks) prepared.push({ ...s, figures: await prepare(s.stack) });
  // the gateway restarts with its limiter on
  notePids();
  // the warm-up, in slices as long as a figure with the limiter's windows emptied before each (else cheap 429s)
  for (const s of Number(o.warmup) > 0 ? prepared : [])
    for (const f of s.figures)
      for (let left = Number(o.warmup); left > 0; left -= defaults.duration) {
        await deleteRedisKeys(redis.url, `${s.stack.prefix}:rl:*`);
        const r = await load(
          s.stack.publicUrl,
          { path: '/', requests: f.requests, overallRate: o.rate ? Number(o.rate) : undefined },
          { ...defaults, duration: Math.min(left, defaults.duration) },
        );
        log(`  warm-up [${s.name}] ${f.name}: ${r.reqPerSec} req/s, non-2xx ${r.non2xx}`);
      }
  for (let round = 1; round <= Number(o.rounds); round++) {
    const b = await load(bare.url, { path: '/' }, defaults);
    log(`round ${round}: bare fastify ${b.reqPerSec} req/s`);
    for (let fi = 0; fi < prepared[0].figures.length; fi++) {
      // each figure on every stack back to back, the order alternating by round
      const order = round % 2 ? prepared : [...prepared].reverse();
      for (const s of order) {
        const f = s.figures[fi];
        let r: Awaited<ReturnType<typeof load>> | undefined;
        // windows of earlier figures and rounds would turn this one's requests into 429s
        await deleteRedisKeys(redis.url, `${s.stack.prefix}:rl:*`);
        // every credential once: the warm-up's connections all start at the list's head, so without
        // this the empty poll's credentials past the first few hundred (and all of them once the
        // gateway's 60 s empty-poll TTL has passed since the last round) met the feed in the run
        await prime(s.stack.publicUrl, f.requests);
        const cpuUs = await cpuPerRequest(f.groups, async () => {
          r = await load(
            s.stack.publicUrl,
            { path: '/', requests: f.requests, overallRate: o.rate ? Number(o.rate) : undefined },
            defaults,
          );
          return r;
        });
        const ratio = Math.round((r!.reqPerSec / b.reqPerSec) * 1000) / 10;
        results.push({ round, stack: s.name, name: f.name, ...r, bare: b.reqPerSec, ratioPct: ratio, cpuUs });
        log(
          `  ${stacks.length > 1 ? `[${s.name}] ` : ''}${f.name}: ${r!.reqPerSec} req/s (${ratio}% of bare), ` +
            `p50 ${r!.p50Ms} / p99 ${r!.p99Ms} ms, non-2xx ${r!.non2xx}, cpu µs ${JSON.stringify(cpuUs)}`,
        );
        if (r!.non2xx) log(`  warning: ${r!.non2xx} non-2xx answers in "${f.name}"`);
      }
    }
  }
  const gws = stacks.map((s) => ({ name: s.name, pid: s.stack.procs.get('gateway')!.pid }));
  const peaks = gws.map((g) => rss(g.pid)?.hwmMb);
  // every process's peak since its start (the gateway's over both of its runs): the k8s requests
  memory.peakRssMb = stacks[0].stack.peakRss();
  log(`peak RSS MB (VmHWM, start and load): ${JSON.stringify(memory.peakRssMb)}`);
  // two idle-collection periods: the first still saw the load
  const afterMs = 2 * IDLE_GC_EVERY_MS + 5000;
  await sleep(afterMs);
  for (const [i, g] of gws.entries()) {
    const after = rss(g.pid);
    const key = i === 0 ? 'gateway' : `${g.name}Gateway`;
    Object.assign(memory, {
      [`${key}PeakUnderLoadMb`]: peaks[i],
      [`${key}AfterLoadMb`]: after?.rssMb,
      [`${key}AfterLoadAnonMb`]: after?.anonMb,
    });
    log(
      `${stacks.length > 1 ? `[${g.name}] ` : ''}gateway RSS: peak under load ${peaks[i]} MB, ${afterMs / 1000} s after ` +
        `${after?.rssMb} MB (anonymous ${after?.anonMb})`,
    );
  }
  if (stacks.length > 1) {
    // per figure and stack, the lowest total over the rounds (the machine's noise only adds)
    for (const f of prepared[0].figures)
      for (const s of stacks) {
        const best = results
          .filter((r) => r.name === f.name && r.stack === s.name)
          .map((r) => r.cpuUs as Record<string, number>)
          .sort((a, b) => a.total - b.total)[0];
        log(`lowest ${f.name} [${s.name}]: cpu µs ${JSON.stringify(best)}`);
      }
  }
  if (o.tracingAb)
    tracingMedians(
      results as Row[],
      prepared[0].figures.map((f) => f.name),
    );
} finally {
  await stopAll();
  sink.close();
  log(`sink: ${sinkRequests} exports`);
  if (o.spanCensus)
    for (const [key, c] of [...census].sort())
      log(`span census: ${key}: ${c.spans} spans in ${c.traces.size} traces`);
}
writeFileSync(
  o.out,
  `${JSON.stringify({ at: new Date().toISOString(), limits: o.limits, tracing: o.tracingAb ? 'ab' : !!o.tracing, openResponses: !!o.openResponses, results, memory }, null, 2)}\n`,
);
log(`results: ${path.relative(process.cwd(), o.out)}`);

if (o.prof) {
  // top self time per profile: samples whose leaf is the function, as a share of the busy samples
  for (const f of readdirSync(profDir).filter((x) => x.endsWith('.cpuprofile'))) {
    const p = JSON.parse(readFileSync(path.join(profDir, f), 'utf8')) as {
      nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number } }[];
      samples: number[];
    };
    const byId = new Map(p.nodes.map((nd) => [nd.id, nd.callFrame]));
    const self = new Map<string, number>();
    let busy = 0;
    for (const s of p.samples) {
      const cf = byId.get(s)!;
      if (cf.functionName === '(idle)' || cf.functionName === '(program)') continue;
      busy++;
      const k = `${cf.functionName || '(anonymous)'} ${cf.url.split('/').slice(-3).join('/')}:${cf.lineNumber}`;
      self.set(k, (self.get(k) ?? 0) + 1);
    }
    if (busy < 1000) continue;
    const pid = Number(/\.(\d+)\.\d+\.\d+\.cpuprofile$/.exec(f)?.[1]);
    log(`${f} (${profOf.get(pid) ?? '?'}): ${busy} busy samples; top self time:`);
    for (const [k, v] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 25))
      log(`  ${((100 * v) / busy).toFixed(1)}% ${k}`);
  }
}
