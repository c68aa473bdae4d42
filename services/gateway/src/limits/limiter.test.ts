import { randomBytes } from 'node:crypto';
import { currentInfra } from '@od/testing';
import fc from 'fast-check';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLimiter, defineLimiterScript, ipBucket, POLICIES, rateLimitHeaders } from './limiter.ts';

/**
 * The sliding-log script runs in real Redis with injected times (ARGV[3]) and is compared with a
 * pure model: "accepted iff fewer than `limit` accepted requests in the last `window`".
 */
let redis: Redis;
const prefix = `t${randomBytes(5).toString('hex')}`;
let seq = 0;
const freshKey = () => `${prefix}:rl:test:${seq++}`;

beforeAll(() => {
  redis = new Redis(currentInfra().redisUrl);
  defineLimiterScript(redis);
});
afterAll(async () => {
  const keys = await redis.keys(`${prefix}:*`);
  if (keys.length) await redis.del(...keys);
  redis.disconnect();
});

function model(limit: number, windowUs: number, times: number[]): boolean[] {
  const accepted: number[] = [];
  return times.map((t) => {
    const inWindow = accepted.filter((a) => t - a < windowUs).length;
    if (inWindow < limit) {
      accepted.push(t);
      return true;
    }
    return false;
  });
}

describe('sliding log script (injected times)', () => {
  it('accepts `limit` then refuses until the oldest leaves the window', async () => {
    const k = freshKey();
    const base = 1_700_000_000_000_000;
    const at = (us: number) => redis.odSlidingLog(k, 3, 1000, base + us);
    expect(await at(0)).toEqual([1, 2, 0]);
    expect(await at(10)).toEqual([1, 1, 0]);
    expect(await at(20)).toEqual([1, 0, 999_980]);
    expect(await at(500_000)).toEqual([0, 0, 500_000]);
    expect(await at(999_999)).toEqual([0, 0, 1]);
    // t=1s: the request of t=0 has left the window; exactly one slot frees
    expect((await at(1_000_000))[0]).toBe(1);
    expect((await at(1_000_001))[0]).toBe(0);
    expect((await at(1_000_010))[0]).toBe(1);
  });

  it('same microsecond twice still records two requests', async () => {
    const k = freshKey();
    const t = 1_700_000_000_000_000;
    expect((await redis.odSlidingLog(k, 2, 1000, t))[0]).toBe(1);
    expect((await redis.odSlidingLog(k, 2, 1000, t))[0]).toBe(1);
    expect((await redis.odSlidingLog(k, 2, 1000, t))[0]).toBe(0);
  });

  it('no double burst at a window boundary: never more than `limit` in any window', async () => {
    const k = freshKey();
    const base = 1_700_000_000_000_000;
    let accepted = 0;
    // 600 at the very end of one minute, 600 at the start of the next: only 600 pass
    for (let i = 0; i < 600; i++)
      accepted += (await redis.odSlidingLog(k, 600, 60_000, base + 59_000_000 + i))[0];
    for (let i = 0; i < 600; i++)
      accepted += (await redis.odSlidingLog(k, 600, 60_000, base + 61_000_000 + i))[0];
    expect(accepted).toBe(600);
  });

  it('matches the model for random arrival times (property)', async () => {
    let runs = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 5 }),
        fc.array(fc.integer({ min: 0, max: 400_000 }), { minLength: 1, maxLength: 40 }),
        async (limit, gaps) => {
          runs++;
          const k = freshKey();
          const base = 1_700_000_000_000_000;
          const times: number[] = [];
          let t = base;
          for (const g of gaps) times.push((t += g));
          const expected = model(limit, 1_000_000, times);
          const got: boolean[] = [];
          for (const at of times) got.push((await redis.odSlidingLog(k, limit, 1000, at))[0] === 1);
          expect(got).toEqual(expected);
        },
      ),
      { numRuns: 150 },
    );
    expect(runs).toBe(150);
  });
});

describe('createLimiter', () => {
  it('600 per credential per minute, separate buckets per credential and per policy', async () => {
    const p = `t${randomBytes(5).toString('hex')}`;
    const limiter = createLimiter(redis, p, true);
    const decisions = await Promise.all(Array.from({ length: 601 }, () => limiter.credential('a')));
    expect(decisions.filter((d) => d.allowed)).toHaveLength(600);
    expect(decisions.filter((d) => !d.allowed)).toHaveLength(1);
    const refused = decisions.find((d) => !d.allowed)!;
    expect(refused.headers['RateLimit-Policy']).toBe('"credential";q=600;w=60');
    expect(refused.headers.RateLimit).toMatch(/^"credential";r=0;t=(59|60)$/);
    expect((await limiter.credential('b')).allowed).toBe(true);
    expect((await limiter.tokenIp('a')).allowed).toBe(true);
    expect(limiter.stats()).toEqual({ fallback: 0, refused: 1 });
    const keys = await redis.keys(`${p}:*`);
    for (const k of keys) expect(await redis.pttl(k)).toBeGreaterThan(50_000);
    await redis.del(...keys);
  });

  it('client address buckets: IPv4 as is, IPv6 by /64', () => {
    expect(ipBucket('203.0.113.7')).toBe('203.0.113.7');
    expect(ipBucket('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(ipBucket('2001:db8:1:2:aaaa:bbbb:cccc:dddd')).toBe('2001:db8:1:2::/64');
    expect(ipBucket('2001:db8:1:2::1')).toBe('2001:db8:1:2::/64');
    expect(ipBucket('2001:0db8:0001:0002::ffff')).toBe('2001:db8:1:2::/64');
    expect(ipBucket('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(ipBucket('::1')).toBe('0:0:0:0::/64');
    expect(ipBucket('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
  });

  it('headers follow draft-ietf-httpapi-ratelimit-headers', () => {
    expect(rateLimitHeaders(POLICIES.tokenIp, 59, 0)).toEqual({
      'RateLimit-Policy': '"token-ip";q=60;w=60',
      RateLimit: '"token-ip";r=59;t=0',
    });
  });

  it('disabled: always allows, no headers, no Redis', async () => {
    const dead = new Redis('redis://127.0.0.1:1', { lazyConnect: true, enableOfflineQueue: false });
    const limiter = createLimiter(dead, 'x', false);
    expect(await limiter.credential('a')).toEqual({ allowed: true, headers: {} });
    expect(limiter.stats().fallback).toBe(0);
    dead.disconnect();
  });

  it('Redis unreachable: the replica counts alone (same limits, same headers), logs and counts', async () => {
    const dead = new Redis('redis://127.0.0.1:1', {
      lazyConnect: true,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 1,
    });
    const lines: unknown[] = [];
    const log = { error: (o: unknown, msg: string) => lines.push([o, msg]) } as never;
    const limiter = createLimiter(dead, 'x', true, log);
    const d = await limiter.credential('a');
    expect(d.allowed).toBe(true);
    expect(d.headers['RateLimit-Policy']).toBe('"credential";q=600;w=60');
    expect((await limiter.tokenIp('1.2.3.4')).allowed).toBe(true);
    expect(limiter.stats().fallback).toBe(2);
    expect(lines).toHaveLength(1); // counted twice, logged once per second
    // the limit still holds: the 11th wrong secret of a credential in the minute is refused
    const failures = await Promise.all(Array.from({ length: 11 }, () => limiter.authFailure('c')));
    expect(failures.filter((f) => f.allowed)).toHaveLength(10);
    const refused = failures.find((f) => !f.allowed);
    expect(refused?.headers.RateLimit).toMatch(/^"auth-failure";r=0;t=\d+$/);
    expect(limiter.stats()).toEqual({ fallback: 13, refused: 1 });
    dead.disconnect();
  });
});
