import { createHash, randomBytes } from 'node:crypto';
import type { RpcReply } from '@od/bus';
import { errors, HttpException } from '@od/errors';
import { currentInfra } from '@od/testing';
import type { FastifyRequest } from 'fastify';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createIdempotency, fingerprintOf, type Idempotency, REPLAY_HEADER } from './idempotency.ts';

/** The module against real Redis, with a counting fake `execute` (HTTP tests live in tests/). */
let redis: Redis;
let idem: Idempotency;
const prefix = `t${randomBytes(5).toString('hex')}`;
const silent = { error() {}, warn() {}, info() {}, debug() {} } as never;

beforeAll(() => {
  redis = new Redis(currentInfra().redisUrl);
  idem = createIdempotency(redis, prefix, { log: silent });
});
afterAll(async () => {
  const keys = await redis.keys(`${prefix}:*`);
  if (keys.length) await redis.del(...keys);
  redis.disconnect();
});

function req(key: string | undefined, opts: { clientId?: string; url?: string } = {}): FastifyRequest {
  return {
    id: 'trace-1',
    method: 'POST',
    url: opts.url ?? '/v1/orders/6f1c0f8e-0000-4000-8000-000000000001/confirm',
    headers: key === undefined ? {} : { 'idempotency-key': key },
    auth: { clientId: opts.clientId ?? 'odc_a', merchantId: 'm', scopes: [] },
    log: silent,
  } as unknown as FastifyRequest;
}

const enc = new TextEncoder();
const dec = new TextDecoder();
function counter(status = 202, body: unknown = { status: 'accepted', situation: 'ACCEPTED' }, delayMs = 0) {
  const c = {
    calls: 0,
    exec: async (): Promise<RpcReply> => {
      c.calls++;
      if (delayMs) await new Promise((r) => setTimeout(r, delayMs));
      return { status, headers: { 'x-custom': `n${c.calls}` }, body: enc.encode(JSON.stringify(body)) };
    },
  };
  return c;
}
const key = () => `k-${randomBytes(6).toString('hex')}`;

async function rejection(p: Promise<unknown>): Promise<HttpException> {
  try {
    await p;
  } catch (e) {
    if (e instanceof HttpException) return e;
    throw e;
  }
  throw new Error('expected an HttpException');
}

describe('Idempotency.run', () => {
  it('without the header: executes every time', async () => {
    const c = counter();
    await idem.run(req(undefined), 'fp', c.exec);
    await idem.run(req(undefined), 'fp', c.exec);
    expect(c.calls).toBe(2);
  });

  it('hands the key and the request fingerprint to execute (the service records the answer)', async () => {
    const seen: Record<string, string>[] = [];
    const exec = async (headers: Record<string, string>): Promise<RpcReply> => {
      seen.push(headers);
      return { status: 202, headers: {}, body: enc.encode('{}') };
    };
    const k = key();
    await idem.run(req(k), 'fp', exec);
    await idem.run(req(k, { clientId: 'odc_b' }), 'fp', exec);
    await idem.run(req(undefined), 'fp', exec);
    expect(seen[0]['idempotency-key']).toBe(k);
    expect(seen[0]['idempotency-fingerprint']).toMatch(/^[\w-]{43}$/);
    expect(seen[1]).toEqual(seen[0]); // another credential: its own record, same fingerprint
    expect(seen[2]).toEqual({});
  });

  it('same key and request: replays status, headers and body without executing', async () => {
    const c = counter();
    const k = key();
    const first = await idem.run(req(k), 'fp', c.exec);
    const second = await idem.run(req(k), 'fp', c.exec);
    expect(c.calls).toBe(1);
    expect(second.status).toBe(202);
    expect(dec.decode(second.body)).toBe(dec.decode(first.body));
    expect(second.headers['x-custom']).toBe('n1');
    expect(second.headers[REPLAY_HEADER]).toBe('true');
    expect(first.headers[REPLAY_HEADER]).toBeUndefined();
    const ttl = await redis.ttl(`${prefix}:idem:odc_a:${k}`);
    expect(ttl).toBeGreaterThan(86_000);
    expect(ttl).toBeLessThanOrEqual(86_400);
  });

  it('same key, other request (fingerprint or path): 409 idempotency_key_reuse, nothing executed', async () => {
    const c = counter();
    const k = key();
    await idem.run(req(k), 'fp', c.exec);
    const e1 = await rejection(idem.run(req(k), 'other-body', c.exec));
    expect(e1.http).toEqual(errors.idempotencyKeyReuse());
    const e2 = await rejection(idem.run(req(k, { url: '/v1/orders/x/dispatch' }), 'fp', c.exec));
    expect(e2.http.status).toBe(409);
    expect(c.calls).toBe(1);
  });

  it('keys are per credential', async () => {
    const c = counter();
    const k = key();
    await idem.run(req(k, { clientId: 'odc_a' }), 'fp', c.exec);
    await idem.run(req(k, { clientId: 'odc_b' }), 'other', c.exec);
    expect(c.calls).toBe(2);
  });

  it('key over 128 characters (or empty): 400 invalid_idempotency_key, nothing executed', async () => {
    const c = counter();
    const e = await rejection(idem.run(req('x'.repeat(129)), 'fp', c.exec));
    expect(e.http).toEqual(errors.invalidIdempotencyKey());
    expect((await rejection(idem.run(req(''), 'fp', c.exec))).http.status).toBe(400);
    await idem.run(req('y'.repeat(128)), 'fp', c.exec);
    expect(c.calls).toBe(1);
  });

  it.each([404, 422, 400])('records %i answers', async (status) => {
    const c = counter(status, { error: 'x', message: 'y' });
    const k = key();
    await idem.run(req(k), 'fp', c.exec);
    const again = await idem.run(req(k), 'fp', c.exec);
    expect(again.status).toBe(status);
    expect(c.calls).toBe(1);
  });

  it('does not record 5xx: a repetition really executes', async () => {
    const c = counter(503, { error: 'internal_error' });
    const k = key();
    await idem.run(req(k), 'fp', c.exec);
    await idem.run(req(k), 'fp', c.exec);
    expect(c.calls).toBe(2);
  });

  it('an unexpected exception releases the key; an HttpException < 500 is recorded', async () => {
    const k = key();
    let calls = 0;
    await expect(
      idem.run(req(k), 'fp', async () => {
        calls++;
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    const c = counter();
    await idem.run(req(k), 'fp', c.exec);
    expect(c.calls).toBe(1);

    const k2 = key();
    const thrown = await rejection(
      idem.run(req(k2), 'fp', async () => {
        calls++;
        throw new HttpException(errors.invalidCancellationReason());
      }),
    );
    expect(thrown.http.status).toBe(400);
    const replay = await idem.run(req(k2), 'fp', c.exec);
    expect(replay.status).toBe(400);
    expect(JSON.parse(dec.decode(replay.body))).toEqual(errors.invalidCancellationReason().body);
    expect(c.calls).toBe(1);
    expect(calls).toBe(2);
  });

  it('20 concurrent same-key requests execute once and all get the same answer', async () => {
    const c = counter(202, { status: 'accepted', situation: 'ACCEPTED' }, 150);
    const k = key();
    const replies = await Promise.all(Array.from({ length: 20 }, () => idem.run(req(k), 'fp', c.exec)));
    expect(c.calls).toBe(1);
    for (const r of replies) {
      expect(r.status).toBe(202);
      expect(JSON.parse(dec.decode(r.body))).toEqual({ status: 'accepted', situation: 'ACCEPTED' });
    }
    expect(replies.filter((r) => r.headers[REPLAY_HEADER] === 'true')).toHaveLength(19);
  });

  it('concurrent same key, different request while the first runs: 409 at once', async () => {
    const c = counter(202, {}, 300);
    const k = key();
    const first = idem.run(req(k), 'fp', c.exec);
    await new Promise((r) => setTimeout(r, 50));
    const t0 = Date.now();
    expect((await rejection(idem.run(req(k), 'other', c.exec))).http.status).toBe(409);
    expect(Date.now() - t0).toBeLessThan(250);
    await first;
    expect(c.calls).toBe(1);
  });

  it('concurrent waiters re-execute once when the first answer is a 5xx', async () => {
    let calls = 0;
    const exec = async (): Promise<RpcReply> => {
      calls++;
      await new Promise((r) => setTimeout(r, 100));
      return calls === 1
        ? { status: 503, headers: {}, body: enc.encode('{}') }
        : { status: 202, headers: {}, body: enc.encode('{"ok":true}') };
    };
    const k = key();
    const replies = await Promise.all(Array.from({ length: 5 }, () => idem.run(req(k), 'fp', exec)));
    expect(calls).toBe(2);
    expect(replies.filter((r) => r.status === 503)).toHaveLength(1);
    expect(replies.filter((r) => r.status === 202)).toHaveLength(4);
  });

  it('a waiter gives up with a retryable 503 when the first runs longer than the wait bound', async () => {
    const short = createIdempotency(redis, prefix, { log: silent, waitMs: 200 });
    const c = counter(202, {}, 600);
    const k = key();
    const first = short.run(req(k), 'fp', c.exec);
    await new Promise((r) => setTimeout(r, 30));
    const e = await rejection(short.run(req(k), 'fp', c.exec));
    expect(e.http.status).toBe(503);
    expect(e.http.headers?.['Retry-After']).toBe('1');
    await first;
    expect(c.calls).toBe(1);
  });

  it('Redis down: a keyed request answers 503 and executes nothing; without a key it executes', async () => {
    const dead = new Redis('redis://127.0.0.1:1', {
      lazyConnect: true,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 1,
    });
    const down = createIdempotency(dead, prefix, { log: silent });
    const c = counter();
    const e = await rejection(down.run(req(key()), 'fp', c.exec));
    expect(e.http).toEqual(errors.unavailable('trace-1'));
    expect(c.calls).toBe(0);
    await down.run(req(undefined), 'fp', c.exec);
    expect(c.calls).toBe(1);
    dead.disconnect();
  });

  /** A Redis client whose next call of `command` is late (ran: `late`) or never reaches Redis (`lost`). */
  function slowOnce(command: 'odIdemAcquire' | 'odIdemComplete', mode: 'late' | 'lost') {
    const slow = new Redis(currentInfra().redisUrl);
    createIdempotency(slow, prefix, { log: silent }); // defines the commands
    const real = slow[command].bind(slow) as (...a: unknown[]) => Promise<unknown>;
    let once = true;
    (slow as unknown as Record<string, unknown>)[command] = (...a: unknown[]) => {
      if (!once) return real(...a);
      once = false;
      const ran = mode === 'late' ? real(...a) : Promise.resolve(null);
      return ran.then((v) => new Promise((r) => setTimeout(() => r(v), 1_500)));
    };
    return { slow, idem: createIdempotency(slow, prefix, { log: silent, waitMs: 500 }) };
  }

  it('a lock taken by a call that timed out is freed at once: the retry executes', async () => {
    const { slow, idem: late } = slowOnce('odIdemAcquire', 'late');
    const k = key();
    const c = counter();
    expect((await rejection(late.run(req(k), 'fp', c.exec))).http.status).toBe(503);
    expect(c.calls).toBe(0);
    await new Promise((r) => setTimeout(r, 300));
    const r = await late.run(req(k), 'fp', c.exec);
    expect(r.status).toBe(202);
    expect(c.calls).toBe(1);
    slow.disconnect();
  });

  it('an answer whose recording timed out is recorded in the background: the retry replays it', async () => {
    const { slow, idem: lost } = slowOnce('odIdemComplete', 'lost');
    const k = key();
    const c = counter();
    expect((await lost.run(req(k), 'fp', c.exec)).status).toBe(202);
    await new Promise((r) => setTimeout(r, 300));
    const again = await lost.run(req(k), 'fp', c.exec);
    expect(again.headers[REPLAY_HEADER]).toBe('true');
    expect(c.calls).toBe(1);
    slow.disconnect();
  });
});

describe('fingerprintOf: the one recipe', () => {
  const sha = (t: string) => createHash('sha256').update(t).digest('base64url');
  it("hashes exactly what the previous release's recipes hashed (records survive a rolling deploy)", () => {
    const url = '/v1/orders/6f1c0f8e-0000-4000-8000-000000000001/requestCancellation';
    const pub = req('k', { url: `${url}?x=1` });
    // order routes: `POST ${path}\n${canonicalJson(body)}` hashed with method and path
    expect(fingerprintOf(pub, { reason: 'r', code: undefined, a: [{ z: 1, y: 2 }] })).toBe(
      sha(`POST ${url}\nPOST ${url}\n{"a":[{"y":2,"z":1}],"reason":"r"}`),
    );
    expect(fingerprintOf(pub, undefined)).toBe(sha(`POST ${url}\nPOST ${url}\n`));
    // admin intake: canonicalJson(body ?? null)
    const admin = {
      ...req('k', { url: '/admin/v1/merchants/m/orders' }),
      routeOptions: { config: { family: 'admin' } },
    } as unknown as FastifyRequest;
    expect(fingerprintOf(admin, undefined)).toBe(sha('POST /admin/v1/merchants/m/orders\nnull'));
    expect(fingerprintOf(admin, { b: 1, a: 2 })).toBe(
      sha('POST /admin/v1/merchants/m/orders\n{"a":2,"b":1}'),
    );
  });
});
