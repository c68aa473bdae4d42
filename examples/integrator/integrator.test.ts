import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import {
  backoffDelay,
  CredentialRejectedError,
  Integrator,
  PermanentError,
  TokenManager,
  tokenEndpoint,
} from './integrator.ts';

// Client rules against a scripted HTTP server (status codes a healthy stack cannot be made to give
// on demand: 5xx, 429, dropped connections). The run against the real stack is in
// tests/feed-integration.test.ts.

type Handler = (req: IncomingMessage, res: ServerResponse, body: string) => void;
let server: Server | undefined;
async function serve(handler: Handler): Promise<string> {
  const s = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => {
      body += c;
    });
    req.on('end', () => handler(req, res, body));
  });
  server = s;
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(s.address() as AddressInfo).port}`;
}
const closeServer = async () => {
  const s = server;
  server = undefined;
  if (s) await new Promise((r) => s.close(r));
};
afterEach(closeServer);
const json = (res: ServerResponse, status: number, body?: unknown, headers: Record<string, string> = {}) => {
  res.writeHead(status, {
    ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    ...headers,
  });
  res.end(body === undefined ? undefined : JSON.stringify(body));
};
const fast = { baseMs: 5, maxMs: 20, attempts: 4 };
const counter = () => {
  let n = 0;
  return {
    next: () => ++n,
    get: () => n,
  };
};
const tokens = (fetched = counter()) =>
  new TokenManager(async () => ({ accessToken: `tok${fetched.next()}`, expiresIn: 3600 }), { backoff: fast });

describe('reference integrator: client rules', () => {
  it('computes full-jitter exponential backoff, never below Retry-After', () => {
    const b = { baseMs: 100, maxMs: 1000, attempts: 5 };
    expect(backoffDelay(0, b, 0, () => 0)).toBe(50);
    expect(backoffDelay(0, b, 0, () => 1)).toBe(100);
    expect(backoffDelay(3, b, 0, () => 1)).toBe(800);
    expect(backoffDelay(10, b, 0, () => 1)).toBe(1000);
    expect(backoffDelay(0, b, 60_000, () => 1)).toBe(60_000);
  });

  it('shares one token, renews it before expiry with a margin, one renewal at a time', async () => {
    let now = 0;
    const fetched = counter();
    const tm = new TokenManager(
      async () => {
        await new Promise((r) => setTimeout(r, 10));
        return { accessToken: `tok${fetched.next()}`, expiresIn: 3600 };
      },
      { marginMs: 300_000, now: () => now },
    );
    const all = await Promise.all([tm.get(), tm.get(), tm.get()]);
    expect(all).toEqual(['tok1', 'tok1', 'tok1']);
    expect(fetched.get()).toBe(1);
    now = 3_299_000; // 5 min 1 s before expiry: still good
    expect(await tm.get()).toBe('tok1');
    now = 3_300_001; // inside the margin: renewed
    expect(await tm.get()).toBe('tok2');
    tm.invalidate('tok1'); // an old token's rejection does not discard the new one
    expect(await tm.get()).toBe('tok2');
  });

  it('on 401 without body renews the token once and repeats the call', async () => {
    const seen: string[] = [];
    const url = await serve((req, res) => {
      seen.push(req.headers.authorization ?? '');
      if (req.headers.authorization === 'Bearer tok1')
        return json(res, 401, undefined, { 'www-authenticate': 'Bearer' });
      json(res, 200, []);
    });
    const it = new Integrator({ baseUrl: url, tokens: tokens(), handle: async () => {}, backoff: fast });
    expect(await it.cycle()).toEqual({ polled: 0, processed: 0, acknowledged: 0 });
    expect(seen).toEqual(['Bearer tok1', 'Bearer tok2']);
  });

  it('stops after a second bodiless 401, and at once on invalid_token / invalid_client', async () => {
    const url = await serve((_req, res) => json(res, 401));
    const a = new Integrator({ baseUrl: url, tokens: tokens(), handle: async () => {}, backoff: fast });
    await expect(a.cycle()).rejects.toBeInstanceOf(CredentialRejectedError);
    await closeServer();

    let calls = 0;
    const url2 = await serve((_req, res) => {
      calls++;
      json(res, 401, { error: 'invalid_token', message: 'Credencial pausada ou revogada.' });
    });
    const b = new Integrator({ baseUrl: url2, tokens: tokens(), handle: async () => {}, backoff: fast });
    const ac = new AbortController();
    await expect(b.run(ac.signal)).rejects.toMatchObject({ code: 'invalid_token' });
    expect(calls).toBe(1);
    await closeServer();

    const url3 = await serve((_req, res) => json(res, 401, { error: 'invalid_client' }));
    const tm = new TokenManager(tokenEndpoint(url3, 'odc_x', 'secret'), { backoff: fast });
    await expect(tm.get()).rejects.toMatchObject({ code: 'invalid_client' });
  });

  it('backs off on 429/503/5xx honouring Retry-After, and on dropped connections', async () => {
    const times: number[] = [];
    const url = await serve((req, res) => {
      times.push(Date.now());
      if (times.length === 1)
        return json(res, 429, { error: 'rate_limit_exceeded', message: 'x' }, { 'retry-after': '1' });
      if (times.length === 2)
        return json(
          res,
          503,
          { error: 'service_unavailable', message: 'x', traceId: 't' },
          { 'retry-after': '1' },
        );
      if (times.length === 3) return json(res, 500, { error: 'internal_error', message: 'x', traceId: 't' });
      if (times.length === 4) return req.socket.destroy();
      json(res, 200, []);
    });
    const backoff = { ...fast, attempts: 6 };
    const it = new Integrator({ baseUrl: url, tokens: tokens(), handle: async () => {}, backoff });
    await it.cycle();
    expect(times).toHaveLength(5);
    expect(times[1] - times[0]).toBeGreaterThanOrEqual(990);
    expect(times[2] - times[1]).toBeGreaterThanOrEqual(990);
  });

  it('never retries other 4xx', async () => {
    let calls = 0;
    const url = await serve((_req, res) => {
      calls++;
      json(res, 400, { type: 't', title: 't', status: 400, errors: {}, traceId: 'x' });
    });
    const it = new Integrator({ baseUrl: url, tokens: tokens(), handle: async () => {}, backoff: fast });
    await expect(it.cycle()).rejects.toBeInstanceOf(PermanentError);
    expect(calls).toBe(1);
  });

  it('processes in order, dedupes by eventId, acks after processing, acks unknown types unprocessed', async () => {
    const ev = (eventType: string) => {
      const orderId = randomUUID();
      return {
        eventId: randomUUID(),
        eventType,
        orderId,
        orderURL: `/orders/${orderId}`,
        createdAt: new Date().toISOString(),
      };
    };
    const e1 = ev('CREATED');
    const e2 = ev('SOMETHING_NEW');
    const e3 = ev('CONFIRMED');
    const pending = [e1, e2, e3];
    const acks: string[][] = [];
    let failE3 = true;
    const url = await serve((req, res, body) => {
      if (req.url?.startsWith('/v1/events:polling')) return json(res, 200, pending);
      if (req.url?.startsWith('/orders/')) return json(res, 200, { id: req.url.slice(8) });
      if (req.url === '/v1/events/acknowledgment') {
        const ids = (JSON.parse(body) as { id: string }[]).map((x) => x.id);
        acks.push(ids);
        // simulate a lost acknowledgment of e1 the first time: it comes back
        if (acks.length > 1)
          for (const id of ids)
            pending.splice(
              pending.findIndex((p) => p.eventId === id),
              1,
            );
        return json(res, 202, { acknowledged: ids.length });
      }
      json(res, 404);
    });
    const handled: string[] = [];
    const it = new Integrator({
      baseUrl: url,
      tokens: tokens(),
      backoff: fast,
      handle: async (order, e) => {
        if (e.eventId === e3.eventId && failE3) {
          failE3 = false;
          throw new Error('POS busy');
        }
        handled.push(`${e.eventType}:${(order as { id: string }).id}`);
      },
    });
    const r1 = await it.cycle();
    expect(r1).toMatchObject({ polled: 3, processed: 1 });
    expect(acks[0]).toEqual([e1.eventId, e2.eventId]); // e3 failed: not acknowledged
    const r2 = await it.cycle();
    expect(r2.processed).toBe(1); // e1, e2 redelivered: deduplicated, not processed again
    expect(acks[1]).toEqual([e1.eventId, e2.eventId, e3.eventId]);
    expect(handled).toEqual([`CREATED:${e1.orderId}`, `CONFIRMED:${e3.orderId}`]);
    expect(pending).toEqual([]);
  });
});
