// The rate limiter's cost: req/s of an authenticated route with RATE_LIMIT_ENABLED false and true in
// the same run, plus the latency of one limiter check (one Lua round trip to Redis).
//   pnpm bench --only limiter        (or: npx tsx bench/limiter.ts, which runs exactly that)
import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Request } from 'autocannon';
import { Redis } from 'ioredis';
import { createLimiter } from '../services/gateway/src/limits/limiter.ts';
import { type BenchContext, percentiles } from './lib/types.ts';

/**
 * Tokens of many credentials on one store, cycled by every connection: each credential stays far
 * below 600 calls per minute, so the "on" run measures the limiter's work, not cheap 429s.
 */
export async function benchLimiter(ctx: BenchContext): Promise<void> {
  const first = await ctx.credential({ scopes: ['merchant:read'] });
  const perCredentialPerRun = 300; // well under 600/min even if warm-up and run share a minute
  const expectedReqPerSec = 6000; // generous upper bound on this kind of machine
  const count = Math.max(
    20,
    Math.ceil((expectedReqPerSec * (ctx.options.duration + 1) * 2) / perCredentialPerRun),
  );
  ctx.log(`  limiter: ${count} credentials on one store`);
  const tokens = [first.token];
  for (let i = 1; i < count; i++)
    tokens.push((await ctx.credential({ scopes: ['merchant:read'], merchantId: first.merchantId })).token);
  const path = `/v1/merchant/${first.merchantId}`;
  const requests: Request[] = tokens.map((t) => ({
    method: 'GET',
    path,
    headers: { authorization: `Bearer ${t}` },
  }));

  // Two paths: the end-to-end read (gateway + NATS + catalog), and the gateway's own work alone
  // (JWT, credential status, limiter, then a 404 decided in the gateway for another store's id).
  // Off/on alternate twice: on a shared machine the order and the moment matter a lot.
  const gatewayOnly = `/v1/merchant/${randomUUID()}`;
  const gwRequests: Request[] = requests.map((r) => ({ ...r, path: gatewayOnly }));
  const best: Record<string, number> = {};
  for (const round of [1, 2]) {
    for (const mode of ['off', 'on'] as const) {
      await ctx.withGatewayEnv({ RATE_LIMIT_ENABLED: mode === 'on' ? 'true' : 'false' }, async () => {
        const extra = mode === 'on' ? { credentials: count } : undefined;
        const e2e = await ctx.measure(
          `limiter ${mode}: GET merchant, end to end, round ${round}`,
          { path, requests },
          extra,
        );
        const gw = await ctx.measure(
          `limiter ${mode}: bearer + limiter + 404 in gateway, round ${round}`,
          { path: gatewayOnly, requests: gwRequests },
          { ...extra, note: '404 expected' },
        );
        best[`e2e ${mode}`] = Math.max(best[`e2e ${mode}`] ?? 0, e2e.reqPerSec ?? 0);
        best[`gw ${mode}`] = Math.max(best[`gw ${mode}`] ?? 0, gw.reqPerSec ?? 0);
      });
    }
  }
  for (const k of ['e2e', 'gw']) {
    const off = best[`${k} off`];
    const on = best[`${k} on`];
    if (off && on)
      ctx.log(
        `  limiter ${k}: best off ${off} req/s, best on ${on} req/s, cost ${(100 * (1 - on / off)).toFixed(1)}%`,
      );
  }

  // one check = one EVALSHA; sequential, so this is the added latency per authenticated call
  const redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', { maxRetriesPerRequest: 1 });
  const prefix = `benchlim${process.pid}`;
  try {
    const limiter = createLimiter(redis, prefix, true);
    const samples: number[] = [];
    for (let i = 0; i < 5000; i++) {
      const t0 = process.hrtime.bigint();
      await limiter.credential(`c${i % 50}`);
      samples.push(Number(process.hrtime.bigint() - t0) / 1e6);
    }
    const p = percentiles(samples.slice(500));
    ctx.record({
      name: 'limiter check (one Redis script, sequential)',
      p50Ms: Number(p.p50Ms.toFixed(3)),
      p99Ms: Number(p.p99Ms.toFixed(3)),
      extra: { samples: p.count, fallback: limiter.stats().fallback },
    });
  } finally {
    const keys = await redis.keys(`${prefix}:*`);
    if (keys.length) await redis.del(...keys);
    redis.disconnect();
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  const r = spawnSync(
    process.execPath,
    [
      '--import',
      'tsx',
      path.join(root, 'bench', 'run.ts'),
      '--only',
      'limiter',
      '--prefix',
      'benchlimiter',
      '--out',
      path.join(root, 'bench', 'results', 'limiter.json'),
      ...process.argv.slice(2),
    ],
    { stdio: 'inherit', cwd: root },
  );
  process.exit(r.status ?? 1);
}
