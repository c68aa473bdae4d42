// `npx tsx bench/alloc.ts [--requests 2000] [--baseline <dir>] [--top 12] [--tracing-ratio p]`
// Bytes allocated on the V8 heap per request by gateway, feed and orders on the hot path (the empty
// poll, a poll answering 10 events, GET order), limits on: what the scavenges pay for, and far less
// noisy than CPU on a shared machine. Each service runs bench/lib/alloc-probe.mjs; a window is the
// figure's N requests (10 credentials, 10 connections), less what the process allocates idle over
// as long (timers, NATS pings). `--baseline` runs another checkout's stack beside this one, figure
// by figure. Prints per process bytes/request and the top allocation sites (sampled, by function).

import { mkdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import autocannon from 'autocannon';
import { Command } from 'commander';
import { ownPostgres, ownRedis } from '../scripts/chaos/servers.ts';
import { okJson, pollingCredential } from './lib/credential.ts';
import { deleteRedisKeys, type ProcessStack, RESULTS_DIR, startProcessStack } from './lib/stack.ts';

const o = new Command('bench:alloc')
  .option('--requests <n>', 'requests per figure', '2000')
  .option('--baseline <dir>', 'also run a stack from this checkout (e.g. main), figure by figure')
  .option('--top <n>', 'allocation sites printed per process', '12')
  .option(
    '--tracing-ratio <p>',
    'this stack exports traces (OTLP/HTTP to a local sink) sampled at this ratio; with --baseline . what tracing allocates',
  )
  .parse()
  .opts<{ requests: string; baseline?: string; top: string; tracingRatio?: string }>();
const log = (m: string) => process.stderr.write(`[alloc ${new Date().toISOString().slice(11, 19)}] ${m}\n`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const N = Number(o.requests);
const PROCS = ['gateway', 'feed', 'orders'];

interface Window {
  allocated: number;
  sampled: number;
  sites: { site: string; bytes: number; callers: string[] }[];
}

/** Runs `work` inside an allocation window of gateway, feed and orders; their windows by name. */
async function measure(stack: ProcessStack, dir: string, label: string, work: () => Promise<unknown>) {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const pids = PROCS.map((p) => stack.procs.get(p)!.pid);
  for (const pid of pids) process.kill(pid, 'SIGUSR2');
  await sleep(300);
  const t0 = performance.now();
  await work();
  const ms = performance.now() - t0;
  for (const pid of pids) process.kill(pid, 'SIGUSR2');
  const out: Record<string, Window> = {};
  for (const [i, pid] of pids.entries()) {
    const file = path.join(dir, `${pid}.json`);
    for (let t = 0; ; t++) {
      try {
        out[PROCS[i]] = JSON.parse(readFileSync(file, 'utf8')) as Window;
        // the whole profile kept as bench/results/alloc/<stack>-<figure>-<service>.heapprofile
        renameSync(path.join(dir, `${pid}.heapprofile`), `${dir}-${label}-${PROCS[i]}.heapprofile`);
        break;
      } catch (e) {
        if (t > 100) throw e;
        await sleep(100);
      }
    }
  }
  return { ms: ms + 300, out };
}

async function prepare(stack: ProcessStack) {
  const admin = stack.admin;
  const merchant = async () =>
    (await okJson<{ id: string }>(await admin('POST', '/admin/v1/merchants', { name: 'Alloc', test: true })))
      .id;
  const order = async (m: string) =>
    (
      await okJson<{ id: string }>(
        await admin('POST', `/admin/v1/merchants/${m}/orders`, { type: 'DELIVERY' }),
      )
    ).id;
  const tokens = async (m: string) => {
    const out: string[] = [];
    for (let i = 0; i < 10; i++)
      out.push((await pollingCredential(stack.publicUrl, admin, m, `a${i}`)).token);
    return out;
  };
  const [empty, busy, withOrder] = [await merchant(), await merchant(), await merchant()];
  // the credentials first: an event goes to the credentials its store has when it happens
  const [emptyTokens, busyTokens, orderTokens] = [
    await tokens(empty),
    await tokens(busy),
    await tokens(withOrder),
  ];
  for (let i = 0; i < 10; i++) await order(busy);
  const id = await order(withOrder);
  const figures = [
    { name: 'poll (empty)', tokens: emptyTokens, path: '/v1/events:polling' },
    { name: 'poll (10 events)', tokens: busyTokens, path: '/v1/events:polling' },
    { name: 'GET order', tokens: orderTokens, path: `/v1/orders/${id}` },
  ];
  const last = figures[1].tokens[9];
  for (let i = 0; ; i++) {
    const r = await fetch(`${stack.publicUrl}/v1/events:polling`, {
      headers: { authorization: `Bearer ${last}` },
    });
    if (((await r.json()) as unknown[]).length >= 10) break;
    if (i > 200) throw new Error('the 10 events never reached the feed');
    await sleep(50);
  }
  return figures.map((f) => ({
    name: f.name,
    requests: f.tokens.map((t) => ({
      method: 'GET' as const,
      path: f.path,
      headers: { authorization: `Bearer ${t}` },
    })),
  }));
}

const run = (url: string, requests: autocannon.Request[], amount: number) =>
  new Promise<autocannon.Result>((resolve, reject) =>
    autocannon({ url, requests, amount, connections: 10 }, (err, r) => (err ? reject(err) : resolve(r))),
  );

// --tracing-ratio: a sink that accepts and drops the exports (a collector elsewhere in production)
const sink = http.createServer((req, res) => {
  req.resume();
  req.on('end', () => res.writeHead(200, { 'content-type': 'application/x-protobuf' }).end());
});
if (o.tracingRatio) await new Promise<void>((r) => sink.listen(0, '127.0.0.1', r));
const tracingEnv: Record<string, string> = o.tracingRatio
  ? {
      OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${(sink.address() as AddressInfo).port}`,
      OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
      OTEL_TRACES_SAMPLER_ARG: o.tracingRatio,
    }
  : {};
const [pgServer, redis] = await Promise.all([ownPostgres(), ownRedis()]);
process.env.DATABASE_URL = pgServer.url;
process.env.REDIS_URL = redis.url;
const stacks: { name: string; stack: ProcessStack; dir: string }[] = [];
try {
  for (const [name, root] of [
    ['this', undefined],
    ['baseline', o.baseline],
  ] as const) {
    if (name === 'baseline' && !root) continue;
    const dir = path.join(RESULTS_DIR, 'alloc', name);
    const stack = await startProcessStack({
      prefix: `alloc${name}`,
      log,
      env: { RATE_LIMIT_ENABLED: 'true', ...(name === 'this' ? tracingEnv : {}) },
      allocProbeDir: dir,
      ...(root ? { root: path.resolve(root) } : {}),
    });
    stacks.push({ name, stack, dir });
  }
  const prepared = [];
  for (const s of stacks) prepared.push({ ...s, figures: await prepare(s.stack) });
  await sleep(3000);
  const idle = new Map<string, Record<string, number>>();
  for (const s of prepared) {
    const w = await measure(s.stack, s.dir, 'idle', () => sleep(5000));
    idle.set(s.name, Object.fromEntries(PROCS.map((p) => [p, w.out[p].allocated / w.ms])));
    log(
      `[${s.name}] idle bytes/ms: ${JSON.stringify(idle.get(s.name), (_, v) => (typeof v === 'number' ? Math.round(v) : v))}`,
    );
  }
  for (let fi = 0; fi < prepared[0].figures.length; fi++)
    for (const s of prepared) {
      const f = s.figures[fi];
      await deleteRedisKeys(redis.url, `${s.stack.prefix}:rl:*`);
      await run(s.stack.publicUrl, f.requests, 200); // warm: every path compiled, caches filled
      const w = await measure(s.stack, s.dir, f.name.replace(/\W+/g, ''), async () => {
        const r = await run(s.stack.publicUrl, f.requests, N);
        if (r.non2xx) log(`  warning: ${r.non2xx} non-2xx answers`);
      });
      const per = (p: string) => Math.round((w.out[p].allocated - idle.get(s.name)![p] * w.ms) / N);
      log(`[${s.name}] ${f.name}: bytes/request ${PROCS.map((p) => `${p} ${per(p)}`).join(', ')}`);
      for (const p of PROCS) {
        const win = w.out[p];
        log(`    ${p}: sampled ${Math.round(win.sampled / N)} B/request; top sites (B/request):`);
        for (const site of win.sites.slice(0, Number(o.top)))
          log(
            `      ${Math.round(site.bytes / N)} ${site.site}  <- ${site.callers[0]?.replace(/^\d+ /, '')}`,
          );
      }
    }
} finally {
  await Promise.allSettled(stacks.map((s) => s.stack.stop()));
  await Promise.allSettled([pgServer.destroy(), redis.destroy()]);
  sink.close();
}
