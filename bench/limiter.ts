// The rate limiter's cost: req/s of an authenticated route with RATE_LIMIT_ENABLED false and true in
// the same run, plus the latency of one limiter check (one Lua round trip to Redis).
//   pnpm bench --only limiter        (or: npx tsx bench/limiter.ts, which runs exactly that)
import { spawnSync } from 'node:child_process';
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

  const off = await ctx.withGatewayEnv({ RATE_LIMIT_ENABLED: 'false' }, () =>
    ctx.measure('limiter off: GET merchant (authenticated)', { path, requests }),
  );
  const on = await ctx.withGatewayEnv({ RATE_LIMIT_ENABLED: 'true' }, () =>
    ctx.measure('limiter on: GET merchant (authenticated)', { path, requests }, { credentials: count }),
  );
  if (off.reqPerSec && on.reqPerSec) {
    ctx.log(`  limiter overhead: ${(100 * (1 - on.reqPerSec / off.reqPerSec)).toFixed(1)}% of req/s`);
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
      extra: { samples: p.count, failOpen: limiter.stats().failOpen },
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
