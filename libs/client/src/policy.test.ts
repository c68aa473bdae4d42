import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import {
  backoffMs,
  createOdClient,
  MemoryTokenStore,
  OdApiError,
  OdAuthError,
  OdNetworkError,
  OdRateLimitError,
  OdValidationError,
  TokenManager,
} from './index.ts';

// The client rules against a scripted HTTP server (answers a healthy stack cannot give on demand:
// 5xx, 429, dropped connections, a slow token endpoint). The run against the real stack is in
// stack.test.ts.

interface Seen {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
}
type Handler = (req: Seen, res: ServerResponse) => void;
const servers: Server[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await new Promise((r) => s.close(r));
});
async function serve(handler: Handler): Promise<{ url: string; seen: Seen[] }> {
  const seen: Seen[] = [];
  const s = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => {
      body += c;
    });
    req.on('end', () => {
      const r = { method: req.method ?? '', path: req.url ?? '', headers: req.headers, body };
      seen.push(r);
      handler(r, res);
    });
  });
  servers.push(s);
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(s.address() as AddressInfo).port}`, seen };
}
const send = (res: ServerResponse, status: number, body?: unknown, headers: Record<string, string> = {}) => {
  res.writeHead(status, {
    ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    ...headers,
  });
  res.end(body === undefined ? undefined : JSON.stringify(body));
};
let tokenCount = 0;
const tokenAnswer = (res: ServerResponse, expiresIn = 3600) =>
  send(res, 200, { access_token: `tok${++tokenCount}`, token_type: 'bearer', expires_in: expiresIn });
const fast = { baseMs: 5, maxMs: 20, attempts: 4 };
const orderId = '0b6f8f0e-4a53-4a8e-9a4b-0c4f2b7d9e11';
const clientOf = (url: string, extra: Record<string, unknown> = {}) =>
  createOdClient({ baseUrl: url, clientId: 'c_1', clientSecret: 's3cret', retry: fast, ...extra });

describe('@od/client: the retry policy', () => {
  it('full-jitter exponential backoff, capped, never below Retry-After', () => {
    const p = { baseMs: 100, maxMs: 1000 };
    expect(backoffMs(0, p, 0, () => 0)).toBe(0);
    expect(backoffMs(0, p, 0, () => 1)).toBe(100);
    expect(backoffMs(3, p, 0, () => 1)).toBe(800);
    expect(backoffMs(10, p, 0, () => 1)).toBe(1000);
    expect(backoffMs(2, p, 0, () => 0.5)).toBe(200);
    expect(backoffMs(0, p, 60_000, () => 1)).toBe(60_000);
  });

  it('retries 500, 503 and 429 (each 503/429 after its Retry-After) with the same Idempotency-Key, then succeeds', async () => {
    const answers = [500, 503, 429];
    const { url, seen } = await serve((r, res) => {
      if (r.path === '/oauth/token') return tokenAnswer(res);
      const s = answers.shift();
      if (s === 429)
        return send(res, 429, { error: 'rate_limit_exceeded', message: 'x' }, { 'retry-after': '1' });
      if (s === 503)
        return send(
          res,
          503,
          { error: 'service_unavailable', message: 'x', traceId: 't' },
          { 'retry-after': '1' },
        );
      if (s) return send(res, s, { error: 'internal_error', message: 'x', traceId: 't' });
      send(res, 202, { status: 'accepted', situation: 'ACCEPTED' });
    });
    const started = Date.now();
    const r = await clientOf(url, { retry: { ...fast, attempts: 5 } }).orders.confirm(orderId);
    expect(r).toEqual({ status: 'accepted', situation: 'ACCEPTED' });
    expect(Date.now() - started).toBeGreaterThanOrEqual(1950); // Retry-After: 1 of the 503 and the 429
    const calls = seen.filter((s) => s.path.endsWith('/confirm'));
    expect(calls).toHaveLength(4);
    const keys = new Set(calls.map((c) => c.headers['idempotency-key']));
    expect(keys.size).toBe(1);
    expect([...keys][0]).toMatch(/^[0-9a-f-]{36}$/);
    // a second logical action gets a new key
    answers.length = 0;
    await clientOf(url).orders.confirm(orderId);
    expect(seen.filter((s) => s.path.endsWith('/confirm')).at(-1)?.headers['idempotency-key']).not.toBe(
      [...keys][0],
    );
  });

  it('retries network errors, and gives up with OdNetworkError after the attempts', async () => {
    let n = 0;
    const { url, seen } = await serve((r, res) => {
      if (r.path === '/oauth/token') return tokenAnswer(res);
      if (++n <= 2) return res.socket?.destroy();
      send(res, 200, { id: orderId });
    });
    expect(await clientOf(url).orders.get(orderId)).toEqual({ id: orderId });
    expect(seen.filter((s) => s.path.startsWith('/v1/orders'))).toHaveLength(3);
    const dead = await serve((r, res) =>
      r.path === '/oauth/token' ? tokenAnswer(res) : res.socket?.destroy(),
    );
    await expect(clientOf(dead.url).orders.get(orderId)).rejects.toBeInstanceOf(OdNetworkError);
    expect(dead.seen.filter((s) => s.path.startsWith('/v1/orders'))).toHaveLength(fast.attempts);
  });

  it('never retries 400, 403, 404, 409, 422; errors are typed with status, code and traceId', async () => {
    for (const [status, error, cls] of [
      [400, 'invalid_cancellation_reason', OdValidationError],
      [403, 'insufficient_scope', OdAuthError],
      [404, 'order_not_found', OdApiError],
      [409, 'idempotency_key_reuse', OdApiError],
      [422, 'invalid_transition', OdApiError],
    ] as const) {
      const { url, seen } = await serve((r, res) =>
        r.path === '/oauth/token'
          ? tokenAnswer(res)
          : send(res, status, { error, message: 'm', traceId: 'tr-1' }),
      );
      const e = await clientOf(url)
        .orders.requestCancellation(orderId, { reason: 'x' })
        .catch((x: unknown) => x);
      expect(e).toBeInstanceOf(cls);
      expect(e).toMatchObject({ status, error, traceId: 'tr-1', message: 'm' });
      expect(seen.filter((s) => s.path.includes('/v1/orders'))).toHaveLength(1);
    }
  });

  it('a bodiless 401 renews the token once and repeats; invalid_token stops at once', async () => {
    let refused = 0;
    const { url, seen } = await serve((r, res) => {
      if (r.path === '/oauth/token') return tokenAnswer(res);
      if (r.headers.authorization === 'Bearer tok1' || refused++ > 5)
        return send(res, 401, undefined, { 'www-authenticate': 'Bearer' });
      send(res, 200, []);
    });
    tokenCount = 0;
    expect(await clientOf(url).events.poll()).toEqual([]);
    expect(seen.filter((s) => s.path === '/oauth/token')).toHaveLength(2);
    expect(seen.filter((s) => s.path.startsWith('/v1/events')).map((s) => s.headers.authorization)).toEqual([
      'Bearer tok1',
      'Bearer tok2',
    ]);
    // a second bodiless 401 in a row is not retried again
    const always = await serve((r, res) =>
      r.path === '/oauth/token'
        ? tokenAnswer(res)
        : send(res, 401, undefined, { 'www-authenticate': 'Bearer' }),
    );
    await expect(clientOf(always.url).events.poll()).rejects.toMatchObject({ status: 401 });
    expect(always.seen.filter((s) => s.path.startsWith('/v1/events'))).toHaveLength(2);
    const revoked = await serve((r, res) =>
      r.path === '/oauth/token'
        ? tokenAnswer(res)
        : send(res, 401, { error: 'invalid_token', message: 'pausada' }),
    );
    const e = await clientOf(revoked.url)
      .events.poll()
      .catch((x: unknown) => x);
    expect(e).toBeInstanceOf(OdAuthError);
    expect((e as OdAuthError).credentialRejected).toBe(true);
    expect(revoked.seen.filter((s) => s.path.startsWith('/v1/events'))).toHaveLength(1);
  });

  it('a 429 whose Retry-After is beyond the budget ends the call with OdRateLimitError', async () => {
    const { url, seen } = await serve((r, res) =>
      r.path === '/oauth/token'
        ? tokenAnswer(res)
        : send(res, 429, { error: 'rate_limit_exceeded', message: 'm' }, { 'retry-after': '60' }),
    );
    const e = await clientOf(url, { retry: { ...fast, maxRetryAfterMs: 1000 } })
      .events.poll()
      .catch((x: unknown) => x);
    expect(e).toBeInstanceOf(OdRateLimitError);
    expect((e as OdRateLimitError).retryAfterSeconds).toBe(60);
    expect(seen.filter((s) => s.path.startsWith('/v1/events'))).toHaveLength(1);
  });

  it('an AbortSignal stops a call during its backoff', async () => {
    const { url } = await serve((r, res) =>
      r.path === '/oauth/token'
        ? tokenAnswer(res)
        : send(res, 503, { error: 'unavailable', message: 'm' }, { 'retry-after': '30' }),
    );
    const ac = new AbortController();
    const started = Date.now();
    setTimeout(() => ac.abort(new Error('stop')), 100);
    await expect(clientOf(url).events.poll({}, { signal: ac.signal })).rejects.toThrow('stop');
    expect(Date.now() - started).toBeLessThan(5000);
  });
});

describe('@od/client: the token manager', () => {
  const tokenServer = async (opts: { delayMs?: number; expiresIn?: number; first429?: string } = {}) => {
    let first = true;
    return serve((r, res) => {
      if (r.path !== '/oauth/token') return send(res, 404);
      if (opts.first429 && first) {
        first = false;
        return send(
          res,
          429,
          { error: 'rate_limit_exceeded', error_description: 'x' },
          { 'retry-after': opts.first429 },
        );
      }
      setTimeout(() => tokenAnswer(res, opts.expiresIn), opts.delayMs ?? 0);
    });
  };

  it('one request in flight for many callers; renewed before expiry with the margin', async () => {
    const { url, seen } = await tokenServer({ delayMs: 50 });
    let now = 1_000_000;
    const tm = new TokenManager({
      baseUrl: url,
      clientId: 'c',
      clientSecret: 's',
      marginMs: 300_000,
      now: () => now,
    });
    const all = await Promise.all(Array.from({ length: 20 }, () => tm.get()));
    expect(new Set(all).size).toBe(1);
    expect(seen).toHaveLength(1);
    expect(seen[0].body).toContain('grant_type=client_credentials');
    now += 3_299_000; // 5 min 1 s before expiry: still good
    expect(await tm.get()).toBe(all[0]);
    now += 2000; // inside the margin: renewed
    expect(await tm.get()).not.toBe(all[0]);
    expect(seen).toHaveLength(2);
  });

  it('processes sharing a store (with its lock) make one token request between them', async () => {
    const { url, seen } = await tokenServer({ delayMs: 150 });
    const store = new MemoryTokenStore(); // stands for Redis or a database: only the interface is used
    const managers = Array.from(
      { length: 4 },
      () => new TokenManager({ baseUrl: url, clientId: 'c', clientSecret: 's', store }),
    );
    const tokens = await Promise.all(managers.map((m) => m.get()));
    expect(new Set(tokens).size).toBe(1);
    expect(seen).toHaveLength(1);
    // a refused token is dropped from the store too: the next caller asks for a new one
    await managers[0].invalidate(tokens[0]);
    expect(await managers[1].get()).toBe(tokens[0]); // its own copy is still fresh in memory
    expect(await managers[0].get()).not.toBe(tokens[0]);
    expect(seen).toHaveLength(2);
  });

  it('honours Retry-After on the token endpoint; invalid_client throws at once', async () => {
    const { url, seen } = await tokenServer({ first429: '1' });
    const started = Date.now();
    await new TokenManager({ baseUrl: url, clientId: 'c', clientSecret: 's', retry: fast }).get();
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(seen).toHaveLength(2);
    const refused = await serve((_r, res) => send(res, 401, { error: 'invalid_client' }));
    const e = await new TokenManager({
      baseUrl: refused.url,
      clientId: 'c',
      clientSecret: 'wrong',
      retry: fast,
    })
      .get()
      .catch((x: unknown) => x);
    expect(e).toBeInstanceOf(OdAuthError);
    expect((e as OdAuthError).credentialRejected).toBe(true);
    expect(refused.seen).toHaveLength(1);
  });
});

describe('@od/client: events.consume', () => {
  const envelope = (n: number) => ({
    eventId: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
    eventType: 'CREATED',
    orderId,
    orderURL: `http://x/v1/orders/${orderId}`,
    createdAt: new Date().toISOString(),
  });

  it('acks only after the handler resolved, skips duplicates, retries a failed event, stops on abort', async () => {
    const pending = new Map([1, 2, 3].map((n) => [envelope(n).eventId, envelope(n)]));
    let lostAcks = 1; // the first acknowledgment is lost: its events come back
    const { url, seen } = await serve((r, res) => {
      if (r.path === '/oauth/token') return tokenAnswer(res);
      if (r.path.startsWith('/v1/events:polling')) return send(res, 200, [...pending.values()]);
      if (r.path === '/v1/events/acknowledgment') {
        const ids = (JSON.parse(r.body) as { id: string }[]).map((x) => x.id);
        if (lostAcks-- > 0) return send(res, 202, { acknowledged: 0 });
        for (const id of ids) pending.delete(id);
        return send(res, 202, { acknowledged: ids.length });
      }
      send(res, 404);
    });
    const handled: string[] = [];
    let failOnce = true;
    const ac = new AbortController();
    const errors: unknown[] = [];
    const stats = await clientOf(url).events.consume(
      async (e) => {
        if (e.eventId === envelope(2).eventId && failOnce) {
          failOnce = false;
          throw new Error('POS down');
        }
        handled.push(e.eventId);
        if (pending.size === 0 || handled.length >= 3) setTimeout(() => ac.abort(), 50);
      },
      {
        signal: ac.signal,
        idle: { minMs: 10, maxMs: 20 },
        failure: { baseMs: 5, maxMs: 10 },
        onError: (e) => errors.push(e),
      },
    );
    expect(handled).toEqual([1, 2, 3].map((n) => envelope(n).eventId));
    expect(errors).toHaveLength(1);
    expect(stats.handled).toBe(3);
    expect(stats.duplicates).toBeGreaterThanOrEqual(1); // event 1 came back after its lost ack
    // event 2 was never acknowledged before its handler resolved
    const acks = seen.filter((s) => s.path === '/v1/events/acknowledgment').map((s) => s.body);
    expect(acks[0]).toBe(JSON.stringify([{ id: envelope(1).eventId }]));
    expect(pending.size).toBe(0);
  });

  it('backs off when idle and stops with OdAuthError when the credential is revoked', async () => {
    let polls = 0;
    const { url } = await serve((r, res) => {
      if (r.path === '/oauth/token') return tokenAnswer(res);
      if (++polls > 3) return send(res, 401, { error: 'invalid_token', message: 'revogada' });
      send(res, 200, []);
    });
    const started = Date.now();
    const e = await clientOf(url)
      .events.consume(() => {}, { idle: { minMs: 100, maxMs: 1000 } })
      .catch((x: unknown) => x);
    expect(e).toBeInstanceOf(OdAuthError);
    expect((e as OdAuthError).error).toBe('invalid_token');
    expect(Date.now() - started).toBeGreaterThanOrEqual(100 + 200 + 400 - 50); // 3 idle waits, doubling
  });
});
