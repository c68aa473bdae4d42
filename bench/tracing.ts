// `pnpm bench:tracing`: the cost of tracing in one process and one run, phases alternated so drift
// and other load on the machine hit both sides alike. Each request is what a gateway request does
// on the hot path: a server span when sampled at the edge, an RPC over NATS (client and server
// spans, context in headers) and a SQL statement in the handler. Off = no OTLP endpoint (the hooks' one boolean test);
// on = OTLP/HTTP export to a local sink with 10% sampling (parent-based trace-id ratio;
// TRACING_RATIO=1: every request traced, so on - off is what one trace costs).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { callRpc, connectBus, serveOp } from '@od/bus';
import { createPool } from '@od/db';
import { createLogger } from '@od/logger';
import {
  edgeEntry,
  initTracing,
  SpanKind,
  setTracingEnabled,
  shutdownTracing,
  traceQueries,
  withSpan,
} from '@od/telemetry';

const PHASE_MS = Number(process.env.PHASE_MS ?? 4000);
const ROUNDS = Number(process.env.ROUNDS ?? 4);
const CONCURRENCY = 16;

const sink = http.createServer((req, res) => {
  req.resume();
  req.on('end', () => res.writeHead(200, { 'content-type': 'application/x-protobuf' }).end());
});
await new Promise<void>((r) => sink.listen(0, '127.0.0.1', r));
Object.assign(process.env, {
  OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${(sink.address() as AddressInfo).port}`,
  OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf',
  OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
  OTEL_TRACES_SAMPLER_ARG: process.env.TRACING_RATIO ?? '0.1',
});
await initTracing('bench-tracing');

const log = createLogger('bench', 'silent');
const nc = await connectBus(process.env.NATS_URL ?? 'nats://127.0.0.1:4222', 'bench-tracing');
const pool = createPool(
  process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres',
  'public',
  8,
);
traceQueries(pool, 'bench');
const subject = `benchtracing${process.pid}.rpc.bench.op`;
// an op open to any caller (as `health`): no signature work in either phase
const op = { service: 'bench', name: 'op', callers: 'any' } as const;
const sub = serveOp(
  nc,
  subject,
  op as never,
  async () => {
    await pool.query('SELECT 1');
    return { status: 200, body: { ok: true } };
  },
  { queue: 'bench', log, keys: { ring: new Map() } as never },
);

async function phase(on: boolean): Promise<{ rps: number; p99: number; cpuUs: number }> {
  setTracingEnabled(on);
  const until = Date.now() + PHASE_MS;
  const cpu0 = process.cpuUsage();
  const lat: number[] = [];
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (Date.now() < until) {
        const t0 = performance.now();
        const call = () =>
          callRpc(nc, subject, { traceId: 'bench', params: {}, query: {}, body: null, headers: {} } as never);
        // as the public listener: sampled at the edge, or no span at all
        const entry = edgeEntry(undefined);
        await (entry ? withSpan('bench', 'GET /bench', { kind: SpanKind.SERVER, ...entry }, call) : call());
        lat.push(performance.now() - t0);
      }
    }),
  );
  const cpu = process.cpuUsage(cpu0);
  lat.sort((a, b) => a - b);
  return {
    rps: (lat.length * 1000) / PHASE_MS,
    p99: lat[Math.floor(lat.length * 0.99)],
    // this process is the caller, the server and the SQL client: all the tracing work is here
    cpuUs: (cpu.user + cpu.system) / lat.length,
  };
}

// warm-up of both sides: the trace code that only sampled requests run needs the most runs to be optimized
await phase(false);
await phase(true);
const off: { rps: number; p99: number; cpuUs: number }[] = [];
const on: { rps: number; p99: number; cpuUs: number }[] = [];
// the order flips every round (off/on, on/off, ...): a phase that always ran second would carry the
// drift of a shared machine alone. TRACING_AA=1 runs "on" with tracing off too (the noise floor).
const aa = process.env.TRACING_AA === '1';
for (let i = 0; i < ROUNDS; i++) {
  if (i % 2 === 0) {
    off.push(await phase(false));
    on.push(await phase(!aa));
  } else {
    on.push(await phase(!aa));
    off.push(await phase(false));
  }
}
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const offRps = mean(off.map((x) => x.rps));
const onRps = mean(on.map((x) => x.rps));
console.log(`tracing off: ${offRps.toFixed(0)} req/s, p99 ${mean(off.map((x) => x.p99)).toFixed(2)} ms`);
console.log(
  `tracing on (${Number(process.env.OTEL_TRACES_SAMPLER_ARG) * 100}% sampled): ${onRps.toFixed(0)} req/s, p99 ${mean(on.map((x) => x.p99)).toFixed(2)} ms`,
);
console.log(
  `rounds off/on req/s: ${off.map((x, i) => `${x.rps.toFixed(0)}/${on[i].rps.toFixed(0)}`).join(' ')}`,
);
console.log(
  `on/off throughput: ${((onRps / offRps) * 100).toFixed(1)}% (${ROUNDS} alternated rounds of ${PHASE_MS} ms)`,
);
// req/s on a shared machine moves by +-20% between identical phases (TRACING_AA=1 shows it); the
// CPU this process spends per request is the steadier measure of what tracing costs
const offCpu = mean(off.map((x) => x.cpuUs));
const onCpu = mean(on.map((x) => x.cpuUs));
console.log(
  `CPU µs per request off/on: ${offCpu.toFixed(1)} / ${onCpu.toFixed(1)} (+${((onCpu / offCpu - 1) * 100).toFixed(1)}%); ` +
    `rounds ${off.map((x, i) => `${x.cpuUs.toFixed(0)}/${on[i].cpuUs.toFixed(0)}`).join(' ')}`,
);
sub.unsubscribe();
await shutdownTracing();
await nc.drain();
await pool.end();
sink.close();
