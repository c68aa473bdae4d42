import { names } from '@od/contracts';
import { currentInfra, uniquePrefix } from '@od/testing';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { LoginLimiter } from './login-limiter.ts';

describe('sign-in limiter (real Redis)', () => {
  const redis = new Redis(currentInfra().redisUrl);
  afterAll(() => redis.disconnect());
  const limiter = () =>
    new LoginLimiter(redis, names(uniquePrefix()).redis, { perAccount: 3, perIp: 5, windowSeconds: 60 });

  it('blocks an account after its failures, and a success clears them', async () => {
    const l = limiter();
    for (let i = 0; i < 3; i++) {
      expect(await l.admit('a@x.test', `10.0.0.${i}`)).toBe(0);
      await l.failed('a@x.test');
    }
    expect(await l.admit('a@x.test', '10.0.0.9')).toBeGreaterThan(0);
    expect(await l.admit('b@x.test', '10.0.0.9')).toBe(0);
    await l.succeeded('a@x.test');
    expect(await l.admit('a@x.test', '10.0.0.8')).toBe(0);
  });

  it('blocks an IP after its attempts, whatever the accounts', async () => {
    const l = limiter();
    for (let i = 0; i < 5; i++) expect(await l.admit(`u${i}@x.test`, '192.0.2.1')).toBe(0);
    const wait = await l.admit('other@x.test', '192.0.2.1');
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(60);
    expect(await l.admit('other@x.test', '192.0.2.2')).toBe(0);
  });
});
