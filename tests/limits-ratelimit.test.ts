import { randomUUID } from 'node:crypto';
import { issueTestToken, startStack, type TestStack } from '@od/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * SPEC Limits, exact across gateway replicas: 600 authenticated calls per minute per credential,
 * 60 token requests per minute per IP, 10 authentication failures per minute per credential.
 * Every bucket lives in Redis; the stack runs two gateways sharing it.
 */
let stack: TestStack;

beforeAll(async () => {
  stack = await startStack({ services: [], gateways: 2 });
});
afterAll(async () => {
  await stack?.stop();
});

/** runs `n` calls of `f(i)` with at most `c` in flight */
async function pool<T>(n: number, c: number, f: (i: number) => Promise<T>): Promise<T[]> {
  const out: T[] = new Array(n);
  let next = 0;
  await Promise.all(
    Array.from({ length: c }, async () => {
      while (next < n) {
        const i = next++;
        out[i] = await f(i);
      }
    }),
  );
  return out;
}

const POLL = '/v1/events:polling';
const get = (path: string, token: string, gw: number, headers: Record<string, string> = {}) =>
  stack.api(path, { headers: { authorization: `Bearer ${token}`, ...headers } }, gw);

describe('limiter shared by two gateways (direct)', () => {
  it('600 credential checks spread over both gateways pass, the 601st is refused on each', async () => {
    const [g0, g1] = stack.gateways.map((g) => g.ctx.limiter);
    const id = `odc_${randomUUID()}`;
    const d = await pool(600, 20, (i) => (i % 2 ? g1 : g0).credential(id));
    expect(d.every((x) => x.allowed)).toBe(true);
    expect((await g1.credential(id)).allowed).toBe(false);
    expect((await g0.credential(id)).allowed).toBe(false);
    expect((await g0.credential(`${id}x`)).allowed).toBe(true);
  });

  it('60 token requests per IP, 10 failures per credential', async () => {
    const [g0, g1] = stack.gateways.map((g) => g.ctx.limiter);
    const ip = `192.0.2.${Math.floor(Math.random() * 250)}`;
    const d = await pool(60, 10, (i) => (i % 2 ? g1 : g0).tokenIp(ip));
    expect(d.every((x) => x.allowed)).toBe(true);
    expect((await g0.tokenIp(ip)).allowed).toBe(false);
    expect((await g1.tokenIp('198.51.100.7')).allowed).toBe(true);
    const id = `odc_${randomUUID()}`;
    const f = await pool(10, 5, (i) => (i % 2 ? g1 : g0).authFailure(id));
    expect(f.every((x) => x.allowed)).toBe(true);
    const eleventh = await g1.authFailure(id);
    expect(eleventh.allowed).toBe(false);
    expect(eleventh.headers['RateLimit-Policy']).toBe('"auth-failure";q=10;w=60');
  });
});

describe('HTTP: authenticated calls per credential', () => {
  it('the 601st call in a minute is refused whichever gateway serves it; another credential is not', async () => {
    const a = await issueTestToken(stack, { scopes: ['orders:read'] });
    const b = await issueTestToken(stack, { scopes: ['orders:read'] });
    const probe = await get(POLL, a.token, 0);
    expect(probe.status).not.toBe(429);
    expect(probe.headers.get('ratelimit-policy')).toBe('"credential";q=600;w=60');
    expect(probe.headers.get('ratelimit')).toBe('"credential";r=599;t=0');
    const statuses = await pool(599, 16, async (i) => {
      const r = await get(POLL, a.token, i % 2);
      await r.arrayBuffer();
      return r.status;
    });
    expect(statuses.filter((s) => s === 429)).toHaveLength(0);
    for (const gw of [1, 0]) {
      const r = await get(POLL, a.token, gw);
      expect(r.status).toBe(429);
      expect(r.headers.get('retry-after')).toBe('60');
      expect(r.headers.get('ratelimit')).toMatch(/^"credential";r=0;t=\d+$/);
      expect(r.headers.get('content-type')).toContain('application/json');
      const body = await r.json();
      expect(body.error).toBe('rate_limit_exceeded');
      expect(typeof body.message).toBe('string');
      expect(Object.keys(body).sort()).toEqual(['error', 'message']);
    }
    const other = await get(POLL, b.token, 1);
    expect(other.status).not.toBe(429);
    expect(other.headers.get('ratelimit')).toBe('"credential";r=599;t=0');
  });

  it('calls without a valid token consume nothing and get no RateLimit headers', async () => {
    const r = await get(POLL, 'not.a.token', 0);
    expect([401, 404]).toContain(r.status);
    expect(r.headers.get('ratelimit')).toBeNull();
  });
});

describe('HTTP: token requests per IP', () => {
  const tokenCall = (gw: number, headers: Record<string, string> = {}) =>
    stack.api(
      '/oauth/token',
      {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
        body: 'grant_type=client_credentials',
      },
      gw,
    );

  it('the 61st request in a minute is refused; spoofed X-Forwarded-For opens no new bucket', async () => {
    const probe = await tokenCall(0, { 'x-forwarded-for': '203.0.113.1' });
    expect(probe.status).toBe(400);
    expect(probe.headers.get('ratelimit-policy')).toBe('"token-ip";q=60;w=60');
    const statuses = await pool(59, 8, async (i) => {
      const r = await tokenCall(i % 2, { 'x-forwarded-for': `203.0.113.${i + 2}` });
      await r.arrayBuffer();
      return r.status;
    });
    expect(statuses.every((s) => s === 400)).toBe(true);
    for (const gw of [0, 1]) {
      const r = await tokenCall(gw, {
        'x-forwarded-for': `198.51.100.${gw + 1}`,
        'x-real-ip': '198.51.100.9',
      });
      expect(r.status).toBe(429);
      expect(r.headers.get('retry-after')).toBe('60');
      expect(await r.json()).toMatchObject({ error: 'rate_limit_exceeded' });
    }
    const alias = await stack.api('/v1/oauth/token', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=client_credentials',
    });
    expect(alias.status).toBe(429);
  });
});

describe('HTTP: X-Forwarded-For is honoured only from a trusted proxy', () => {
  let proxied: TestStack;
  beforeAll(async () => {
    proxied = await startStack({ services: [], env: { TRUST_PROXY: '127.0.0.1' } });
  });
  afterAll(async () => {
    await proxied?.stop();
  });

  it('behind the trusted proxy each client address has its own bucket', async () => {
    const call = (xff: string) =>
      proxied.api('/oauth/token', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': xff },
        body: 'grant_type=client_credentials',
      });
    expect((await call('203.0.113.50')).status).toBe(400); // 1st of the 60
    const statuses = await pool(59, 8, async () => (await call('203.0.113.50')).status);
    expect(statuses.every((s) => s === 400)).toBe(true);
    expect((await call('203.0.113.50')).status).toBe(429);
    // the proxy appends the real client last: a forged first hop does not escape either
    expect((await call('10.9.9.9, 203.0.113.50')).status).toBe(429);
    expect((await call('203.0.113.51')).status).toBe(400);
  });
});
