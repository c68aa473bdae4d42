import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';
import { currentInfra } from '@od/testing';
import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);

// A token shared by processes: four worker processes with a TokenManager each, over one Redis
// store (the README's adapter), ask for the same credential's token at once; the token endpoint
// (slow on purpose, so the requests overlap) is asked once.
describe('@od/client: one token across processes', () => {
  it('four processes sharing a Redis TokenStore make one token request', { timeout: 60_000 }, async () => {
    let requests = 0;
    const server = createServer((_req, res) => {
      requests++;
      setTimeout(() => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ access_token: `tok-${requests}`, token_type: 'bearer', expires_in: 3600 }));
      }, 1500);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const clientId = `odc_${randomBytes(12).toString('hex')}`;
    const redisUrl = currentInfra().redisUrl;
    try {
      const worker = path.join(import.meta.dirname, 'test', 'token-process.ts');
      const outs = await Promise.all(
        [1, 2, 3, 4].map(() =>
          run(process.execPath, ['--import', 'tsx', worker], {
            env: { ...process.env, BASE_URL: baseUrl, CLIENT_ID: clientId, REDIS_URL: redisUrl },
          }),
        ),
      );
      const results = outs.map((o) => JSON.parse(o.stdout.trim()) as { tokens: string[]; requests: number });
      expect(new Set(results.flatMap((r) => r.tokens))).toEqual(new Set(['tok-1']));
      expect(requests).toBe(1);
      expect(results.reduce((n, r) => n + r.requests, 0)).toBe(1);
    } finally {
      server.close();
      const redis = new Redis(redisUrl);
      const key = `od-token:${baseUrl}:${clientId}`;
      await redis.del(key, `${key}:lock`);
      await redis.quit();
    }
  });
});
