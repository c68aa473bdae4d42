// `pnpm bench`: throughput and latency of the platform's hot paths, each beside a bare fastify
// hello-world measured in the same run (ratios are what compare across machines).
//   pnpm bench                      starts the stack as child processes (database od_bench, NATS prefix bench)
//   pnpm bench --duration 10        seconds per figure (default 5)
//   pnpm bench --only merchant      scenarios whose name matches
//   pnpm bench --url http://host:8080 --admin-url http://host:8081 --admin-token ...   a running stack
// Scenarios: bench/lib/scenarios (core) + every bench/<area>-*.ts file (see bench/lib/types.ts).
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Command } from 'commander';
import { createHarness } from './lib/context.ts';
import { discoverScenarios } from './lib/discover.ts';
import { load } from './lib/load.ts';
import { rss } from './lib/proc.ts';
import { figuresTable, type Goal, goalsTable, rssTable } from './lib/report.ts';
import { coreScenarios } from './lib/scenarios/merchant-read.ts';
import { type ProcessStack, RESULTS_DIR, startBare, startProcessStack } from './lib/stack.ts';
import type { Figure, Scenario } from './lib/types.ts';

const program = new Command('bench')
  .option('--url <url>', 'public URL of a running stack (default: start one)')
  .option('--admin-url <url>', 'admin URL of that stack', 'http://localhost:8081')
  .option('--admin-token <token>', 'admin token of that stack (env ADMIN_TOKEN)')
  .option('--duration <s>', 'seconds of measured load per figure', '5')
  .option('--connections <n>', 'autocannon connections', '50')
  .option('--only <regex>', 'run only scenarios whose name matches')
  .option('--prefix <name>', 'NATS/Redis prefix and database od_<prefix> of the started stack', 'bench')
  .option('--rate-limit', 'keep the rate limiter on (default off, except for the limiter scenario)')
  .option('--keep-database', 'do not drop the database at the end')
  .option('--out <file>', 'JSON results', path.join(RESULTS_DIR, 'latest.json'))
  .parse();
const o = program.opts<{
  url?: string;
  adminUrl: string;
  adminToken?: string;
  duration: string;
  connections: string;
  only?: string;
  prefix: string;
  rateLimit?: boolean;
  keepDatabase?: boolean;
  out: string;
}>();

const log = (m: string) => process.stderr.write(`${m}\n`);
const duration = Number(o.duration);
const connections = Number(o.connections);
const started = new Date();
// other work on the machine skews absolute figures; the ratios to bare fastify are what compare
const loadBefore = os
  .loadavg()
  .map((l) => l.toFixed(2))
  .join(' ');

// 1. the yardstick, measured first while nothing else runs
log(`bare fastify: ${duration}s, -c ${connections}`);
const bareProc = await startBare();
const bareLoad = await load(bareProc.url, { path: '/' }, { duration, connections });
const bareRss = rss(bareProc.proc.pid);
// bare fastify stays up (idle) so scenarios can measure it at their own rate: ctx.bareUrl
const bare: Figure = {
  name: 'bare fastify hello-world',
  reqPerSec: bareLoad.reqPerSec,
  p50Ms: bareLoad.p50Ms,
  p99Ms: bareLoad.p99Ms,
  ratio: 1,
  non2xx: bareLoad.non2xx,
  errors: bareLoad.errors,
  extra: { peakRssMb: bareRss?.hwmMb ?? '-' },
};
log(`  ${bare.reqPerSec} req/s, p50 ${bare.p50Ms} ms, p99 ${bare.p99Ms} ms`);

// 2. the stack
let stack: ProcessStack | null = null;
const idleRss: Record<string, number> = {};
let publicUrl = o.url;
let adminUrl = o.adminUrl;
let adminToken = o.adminToken ?? process.env.ADMIN_TOKEN ?? 'dev-admin-token';
const failures: { scenario: string; error: string }[] = [];
let exitCode = 0;
try {
  if (!publicUrl) {
    log('starting the stack (one process per service)...');
    stack = await startProcessStack({
      prefix: o.prefix,
      env: o.rateLimit ? { RATE_LIMIT_ENABLED: 'true' } : {},
      log,
    });
    publicUrl = stack.publicUrl;
    adminUrl = stack.adminUrl;
    adminToken = stack.adminToken;
    await new Promise((r) => setTimeout(r, 2000)); // let start-up garbage settle
    for (const [name, p] of stack.procs) {
      const r = rss(p.pid);
      if (r) idleRss[name] = r.rssMb;
    }
    log(`idle RSS MB: ${JSON.stringify(idleRss)}`);
  }

  const h = createHarness({
    publicUrl,
    adminUrl,
    adminToken,
    bareUrl: bareProc.url,
    duration,
    connections,
    stack,
    log,
    nats: { url: process.env.NATS_URL ?? 'nats://127.0.0.1:4222', prefix: o.prefix },
  });
  h.setBare(bare.reqPerSec!);
  h.figures.push(bare);

  // 3. scenarios: core first, then contributed ones
  const contributed = await discoverScenarios(path.join(import.meta.dirname), log);
  const all: Scenario[] = [...coreScenarios, ...contributed.flatMap((c) => c.scenarios)];
  const only = o.only ? new RegExp(o.only, 'i') : null;
  for (const s of all) {
    if (only && !only.test(s.name)) continue;
    log(`scenario: ${s.name}`);
    try {
      await s.run(h.ctx);
    } catch (e) {
      const msg = (e as Error).message ?? String(e);
      failures.push({ scenario: s.name, error: msg });
      log(`! ${s.name} failed: ${msg}`);
    }
  }

  // 4. report
  const peakRss: Record<string, number> = stack ? stack.peakRss() : {};
  const byName = (re: RegExp) => h.figures.find((f) => re.test(f.name));
  const max = byName(/merchant\/\{id\} \(max\)/);
  const half = byName(/merchant\/\{id\} \(half load\)/);
  const bareHalf = byName(/^bare fastify at the same rate/);
  const idleValues = Object.values(idleRss);
  const goals: Goal[] = [
    {
      goal: 'merchant read >= 6% of bare fastify req/s',
      value: max?.ratio !== undefined ? `${(max.ratio * 100).toFixed(1)}%` : '-',
      ok: max?.ratio !== undefined ? max.ratio >= 0.06 : null,
    },
    {
      goal: 'merchant read p99 <= 10 ms at half load',
      value:
        half?.p99Ms !== undefined
          ? `${half.p99Ms} ms${bareHalf?.p99Ms !== undefined ? ` (bare fastify, same rate: ${bareHalf.p99Ms} ms)` : ''}`
          : '-',
      ok: half?.p99Ms !== undefined ? half.p99Ms <= 10 : null,
    },
    {
      goal: 'every service idle RSS <= 120 MB',
      value: idleValues.length ? `max ${Math.max(...idleValues)} MB` : '-',
      ok: idleValues.length ? idleValues.every((v) => v <= 120) : null,
    },
  ];

  const out: string[] = [];
  out.push('');
  out.push(
    `Open Delivery platform benchmark, ${started.toISOString()}, ${os.cpus().length} CPUs, node ${process.version}, ` +
      `autocannon -c ${connections}, ${duration}s per figure, load average before ${loadBefore}` +
      (stack ? '' : `, target ${publicUrl}`),
  );
  out.push('');
  out.push(figuresTable(h.figures));
  if (stack) {
    out.push('');
    out.push(rssTable(idleRss, peakRss));
  }
  out.push('');
  out.push(goalsTable(goals));
  for (const f of failures) out.push(`FAILED scenario "${f.scenario}": ${f.error}`);
  process.stdout.write(`${out.join('\n')}\n`);

  mkdirSync(path.dirname(o.out), { recursive: true });
  writeFileSync(
    o.out,
    `${JSON.stringify(
      {
        startedAt: started.toISOString(),
        machine: { cpus: os.cpus().length, model: os.cpus()[0]?.model, node: process.version, loadBefore },
        options: { duration, connections, url: o.url ?? null },
        figures: h.figures,
        idleRssMb: idleRss,
        peakRssMb: peakRss,
        goals,
        failures,
      },
      null,
      2,
    )}\n`,
  );
  log(`results written to ${path.relative(process.cwd(), o.out)}`);
  if (failures.length) exitCode = 1;
} catch (e) {
  log(`bench failed: ${(e as Error).stack ?? e}`);
  exitCode = 1;
} finally {
  await stack?.stop({ keepDatabase: o.keepDatabase });
  await bareProc.proc.stop();
}
process.exit(exitCode);
