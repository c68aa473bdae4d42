import type { Redis } from 'ioredis';
import type { TokenStore } from '../index.ts';

/** The Redis TokenStore of the README ("The rules it follows"), as written there. */
export const redisTokenStore = (redis: Redis): TokenStore => ({
  get: async (k) => JSON.parse((await redis.get(k)) ?? 'null') ?? undefined,
  set: async (k, t) => void (await redis.set(k, JSON.stringify(t), 'PXAT', t.expiresAt)),
  lock: async (k, ttl) => (await redis.set(`${k}:lock`, '1', 'PX', ttl, 'NX')) === 'OK',
  unlock: async (k) => void (await redis.del(`${k}:lock`)),
});
