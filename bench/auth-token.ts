// Token endpoint throughput and latency: `npx tsx bench/auth-token.ts [seconds=5] [concurrency=16]`.
// Starts an isolated in-process stack (catalog + auth + gateway, rate limits off), creates 20
// credentials, then:
//  1. renewals: `concurrency` workers request tokens with correct secrets for `seconds`;
//     reports tokens/s, p50 and p99;
//  2. flood: the same load of wrong secrets for unknown/known clients, while one worker renews a
//     real credential; reports that worker's p50/p99 and how the flood was answered (401/429/503).
import { randomBytes } from 'node:crypto';
import { SCOPES } from '@od/contracts';
import { requestToken, startStack, type TestStack } from '@od/testing';

const SECONDS = Number(process.argv[2] ?? 5);
const CONCURRENCY = Number(process.argv[3] ?? 16);
const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] : Number.NaN;
};
const ms = (x: number) => `${x.toFixed(1)} ms`;

async function credentials(stack: TestStack, n: number) {
  const store = await stack.admin('POST', '/admin/v1/merchants', { name: 'Bench', test: true });
  const merchantId = ((await store.json()) as { id: string }).id;
  const out: { clientId: string; clientSecret: string }[] = [];
  for (let i = 0; i < n; i++) {
    const r = await stack.admin('POST', `/admin/v1/merchants/${merchantId}/credentials`, {
      name: `bench ${i}`,
      scopes: [...SCOPES],
      deliveryMode: 'POLLING',
    });
    out.push((await r.json()) as { clientId: string; clientSecret: string });
  }
  return out;
}

/** Runs `workers` loops of `call` until `seconds` pass; latency of each call and status counts. */
async function drive(workers: number, seconds: number, call: (i: number) => Promise<Response>) {
  const lat: number[] = [];
  const statuses = new Map<number, number>();
  const end = performance.now() + seconds * 1000;
  await Promise.all(
    Array.from({ length: workers }, async (_, w) => {
      for (let i = w; performance.now() < end; i += workers) {
        const t = performance.now();
        const r = await call(i);
        await r.arrayBuffer();
        lat.push(performance.now() - t);
        statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
      }
    }),
  );
  return { lat, statuses, rate: lat.length / seconds };
}

const stack = await startStack({ services: ['catalog', 'auth'], env: { RATE_LIMIT_ENABLED: 'false' } });
try {
  const creds = await credentials(stack, 20);
  // warm-up (first scrypt/HMAC, JIT, connections)
  await drive(4, 1, (i) => requestToken(stack, creds[i % 20].clientId, creds[i % 20].clientSecret));

  const ok = await drive(CONCURRENCY, SECONDS, (i) =>
    requestToken(stack, creds[i % 20].clientId, creds[i % 20].clientSecret),
  );
  console.log(
    `renewals: ${ok.rate.toFixed(0)} tokens/s, p50 ${ms(pct(ok.lat, 50))}, p99 ${ms(pct(ok.lat, 99))} ` +
      `(c=${CONCURRENCY}, ${SECONDS}s) statuses ${JSON.stringify(Object.fromEntries(ok.statuses))}`,
  );

  const real = creds[0];
  const [flood, renew] = await Promise.all([
    drive(CONCURRENCY * 4, SECONDS, (i) =>
      requestToken(stack, creds[1 + (i % 19)].clientId, randomBytes(32).toString('base64url')),
    ),
    drive(1, SECONDS, () => requestToken(stack, real.clientId, real.clientSecret)),
  ]);
  console.log(
    `flood of wrong secrets (c=${CONCURRENCY * 4}): ${flood.rate.toFixed(0)} answers/s ` +
      `${JSON.stringify(Object.fromEntries(flood.statuses))}, p50 ${ms(pct(flood.lat, 50))}`,
  );
  console.log(
    `  a real credential meanwhile: p50 ${ms(pct(renew.lat, 50))}, p99 ${ms(pct(renew.lat, 99))}, ` +
      `${JSON.stringify(Object.fromEntries(renew.statuses))}`,
  );
} finally {
  await stack.stop();
}
