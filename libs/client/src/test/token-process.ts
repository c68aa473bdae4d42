// One "worker process" of shared-token.test.ts: a TokenManager over the shared Redis store asks for
// the credential's token (twice, concurrently) and prints what it got.
import { Redis } from 'ioredis';
import { TokenManager } from '../index.ts';
import { redisTokenStore } from './redis-token-store.ts';

const redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
const tokens = new TokenManager({
  baseUrl: process.env.BASE_URL ?? '',
  clientId: process.env.CLIENT_ID ?? '',
  clientSecret: 's',
  store: redisTokenStore(redis),
});
const got = await Promise.all([tokens.get(), tokens.get()]);
console.log(JSON.stringify({ tokens: got, requests: tokens.requests }));
await redis.quit();
