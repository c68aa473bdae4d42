// `tsx bench/jwt-verify.ts`: CPU microseconds per bearer-token verify, fast-jwt called by hand vs
// through @fastify/jwt (`app.jwt.verify`), both with a verifier cache, on a repeated token (the
// common case: an integrator polls with one token for an hour) and on fresh tokens (cache misses).
// Phases alternate so drift and other load hit both sides alike.
import fastifyJwt from '@fastify/jwt';
import { createSigner, createVerifier } from 'fast-jwt';
import Fastify from 'fastify';

const SECRET = 'bench-secret-0123456789abcdef0123456789abcdef';
const N = Number(process.env.N ?? 200_000);
const ROUNDS = Number(process.env.ROUNDS ?? 4);
const options = { algorithms: ['HS256' as const], requiredClaims: ['exp'], cache: 10_000 };

const sign = createSigner({ key: SECRET, algorithm: 'HS256', expiresIn: 3_600_000 });
const claims = (i: number) => ({ merchant_id: `m${i}`, client_id: `odc_${i}`, scope: 'orders:read' });
const byHand = createVerifier({ key: SECRET, ...options });
const app = Fastify();
await app.register(fastifyJwt, { secret: SECRET, verify: options });
await app.ready();

function cpuMicrosPerCall(verify: (t: string) => unknown, tokens: string[]): number {
  const start = process.cpuUsage();
  for (let i = 0; i < N; i++) verify(tokens[i % tokens.length]);
  const used = process.cpuUsage(start);
  return (used.user + used.system) / N;
}

const repeated = [sign(claims(0))];
const fresh = () => Array.from({ length: 20_000 }, (_, i) => sign(claims(i + Math.random())));
const sides = {
  'fast-jwt by hand': (t: string) => byHand(t),
  '@fastify/jwt app.jwt.verify': (t: string) => app.jwt.verify(t),
};
const results: Record<string, { repeated: number[]; misses: number[] }> = {};
for (let r = 0; r < ROUNDS; r++)
  for (const [name, verify] of Object.entries(sides)) {
    results[name] ??= { repeated: [], misses: [] };
    results[name].repeated.push(cpuMicrosPerCall(verify, repeated));
    // fresh tokens each round, more than the cache holds: every verify is an HMAC
    results[name].misses.push(cpuMicrosPerCall(verify, fresh()));
  }
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
for (const [name, r] of Object.entries(results))
  console.log(
    `${name.padEnd(30)} repeated token ${median(r.repeated).toFixed(2)} µs CPU/verify; fresh tokens ${median(r.misses).toFixed(2)} µs`,
  );
await app.close();
