import { names } from '@od/contracts';
import { currentInfra, uniquePrefix } from '@od/testing';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { LoginLimiter, SIGN_IN_LIMITS } from './login-limiter.ts';

describe('sign-in limiter (real Redis)', () => {
  const redis = new Redis(currentInfra().redisUrl);
  afterAll(() => redis.disconnect());
  const limiter = (limits: Partial<typeof SIGN_IN_LIMITS> = {}) =>
    new LoginLimiter(redis, names(uniquePrefix()).redis, {
      ...SIGN_IN_LIMITS,
      freeAttempts: 3,
      perIp: 1000,
      ...limits,
    });

  it('a concurrent burst gets the free attempts and one more, then waits (counted before hashing)', async () => {
    const l = limiter();
    const waits = await Promise.all(Array.from({ length: 20 }, () => l.admit('a@x.test', '10.0.0.1')));
    expect(waits.filter((w) => w === 0)).toHaveLength(4);
    expect(Math.min(...waits.filter((w) => w > 0))).toBeGreaterThan(0);
  });

  it('the delay grows with each attempt and ends with a success', async () => {
    const l = limiter({ freeAttempts: 0 });
    expect(await l.admit('b@x.test', '10.0.0.2')).toBe(0); // next one in 1 s
    expect(await l.admit('b@x.test', '10.0.0.2')).toBe(1);
    await new Promise((r) => setTimeout(r, 1100));
    expect(await l.admit('b@x.test', '10.0.0.2')).toBe(0); // next one in 2 s
    expect(await l.admit('b@x.test', '10.0.0.2')).toBe(2);
    await l.succeeded('b@x.test', '10.0.0.2');
    expect(await l.admit('b@x.test', '10.0.0.2')).toBe(0);
  });

  it("someone else's failures never delay the owner's network (no lockout by a third party)", async () => {
    const l = limiter();
    for (let i = 0; i < 10; i++) await l.admit('victim@x.test', '203.0.113.9');
    expect(await l.admit('victim@x.test', '203.0.113.9')).toBeGreaterThan(0);
    expect(await l.admit('victim@x.test', '198.51.100.1')).toBe(0);
  });

  it('an IPv6 client rotating inside its /64 is one network', async () => {
    const l = limiter({ freeAttempts: 1 });
    expect(await l.admit('c@x.test', '2001:db8:1:2::1')).toBe(0);
    expect(await l.admit('c@x.test', '2001:db8:1:2::2')).toBe(0);
    expect(await l.admit('c@x.test', '2001:db8:1:2:ffff::3')).toBeGreaterThan(0);
    expect(await l.admit('c@x.test', '2001:db8:1:3::1')).toBe(0);
  });

  it('caps a network whatever the accounts', async () => {
    const l = limiter({ perIp: 5 });
    for (let i = 0; i < 5; i++) expect(await l.admit(`u${i}@x.test`, '192.0.2.1')).toBe(0);
    const wait = await l.admit('other@x.test', '192.0.2.1');
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(SIGN_IN_LIMITS.windowSeconds);
    expect(await l.admit('other@x.test', '192.0.2.2')).toBe(0);
  });

  it('guesses spread over many networks stop at the account cap; a network that signed in before goes on', async () => {
    const l = limiter({ perAccountUnknown: 5 });
    await l.admit('d@x.test', '192.0.2.50'); // unknown until it succeeds: 1 of the 5
    await l.succeeded('d@x.test', '192.0.2.50');
    for (let i = 0; i < 4; i++) expect(await l.admit('d@x.test', `198.51.100.${i}`)).toBe(0);
    expect(await l.admit('d@x.test', '198.51.100.99')).toBeGreaterThan(0);
    expect(await l.admit('d@x.test', '192.0.2.50')).toBe(0);
  });

  it('password setups are counted per network', async () => {
    const l = limiter({ setupPerIp: 2 });
    expect(await l.admitSetup('2001:db8::1')).toBe(0);
    expect(await l.admitSetup('2001:db8::2')).toBe(0);
    expect(await l.admitSetup('2001:db8::3')).toBeGreaterThan(0);
    expect(await l.admitSetup('192.0.2.3')).toBe(0);
  });
});
