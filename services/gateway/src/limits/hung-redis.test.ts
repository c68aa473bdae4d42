import { createServer, type Server, type Socket } from 'node:net';
import type { HttpException } from '@od/errors';
import type { FastifyRequest } from 'fastify';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createIdempotency } from '../idempotency/idempotency.ts';
import { createLimiter, REDIS_TIMEOUT_MS } from './limiter.ts';

/**
 * A Redis that accepts the connection, passes ioredis' ready check, then never answers: the limiter
 * must fall back to the replica's own count and the idempotency store must refuse (503) within their bounds, never hang.
 */
let server: Server;
let port = 0;
const sockets = new Set<Socket>();

beforeAll(async () => {
  server = createServer((socket) => {
    sockets.add(socket);
    socket.on('data', (d) => {
      // answer the connection set-up (CLIENT SETINFO, INFO ready check); swallow everything else
      const text = d.toString();
      for (const cmd of text.split(/(?=\*\d+\r\n)/)) {
        const lower = cmd.toLowerCase();
        if (lower.includes('\r\nclient\r\n')) socket.write('+OK\r\n');
        else if (/^\*1\r\n\$4\r\ninfo\r\n/.test(lower)) socket.write('$0\r\n\r\n');
      }
    });
    socket.on('error', () => {});
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  port = (server.address() as { port: number }).port;
});
afterAll(async () => {
  for (const s of sockets) s.destroy();
  await new Promise((r) => server.close(r));
});

async function hungClient(commandTimeout?: number): Promise<Redis> {
  const redis = new Redis({
    host: '127.0.0.1',
    port,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    ...(commandTimeout ? { commandTimeout } : {}),
  });
  await new Promise<void>((resolve, reject) => {
    redis.once('ready', resolve);
    redis.once('error', reject);
  });
  return redis;
}
const silent = { error() {}, warn() {}, info() {} } as never;

describe('hung Redis', () => {
  it('limiter: falls back to the local count after its timeout and counts it', async () => {
    const redis = await hungClient();
    const limiter = createLimiter(redis, 'x', true, silent);
    const t0 = Date.now();
    const d = await limiter.credential('a');
    const took = Date.now() - t0;
    expect(d.allowed).toBe(true);
    expect(took).toBeGreaterThanOrEqual(REDIS_TIMEOUT_MS - 50);
    expect(took).toBeLessThan(REDIS_TIMEOUT_MS + 1500);
    expect(limiter.stats().fallback).toBe(1);
    redis.disconnect();
  });

  it("limiter: with the client's own command timeout (the gateway's), falls back when it expires", async () => {
    const redis = await hungClient(200);
    const limiter = createLimiter(redis, 'x', true, silent);
    const t0 = Date.now();
    const d = await limiter.credential('a');
    const took = Date.now() - t0;
    expect(d.allowed).toBe(true);
    expect(took).toBeGreaterThanOrEqual(150);
    expect(took).toBeLessThan(REDIS_TIMEOUT_MS + 1500);
    expect(limiter.stats().fallback).toBe(1);
    redis.disconnect();
  });

  it('idempotency: a keyed request gets 503 within about a second, nothing executed', async () => {
    const redis = await hungClient();
    const idem = createIdempotency(redis, 'x', { log: silent });
    let calls = 0;
    const request = {
      id: 't',
      method: 'POST',
      url: '/v1/orders/x/confirm',
      headers: { 'idempotency-key': 'k' },
      auth: { clientId: 'c', merchantId: 'm', scopes: [] },
      log: silent,
    } as unknown as FastifyRequest;
    const t0 = Date.now();
    let status = 0;
    try {
      await idem.run(request, 'fp', async () => {
        calls++;
        return { status: 202, headers: {}, body: new Uint8Array() };
      });
    } catch (e) {
      status = (e as HttpException).http.status;
    }
    expect(status).toBe(503);
    expect(Date.now() - t0).toBeLessThan(3000);
    expect(calls).toBe(0);
    redis.disconnect();
  });
});
