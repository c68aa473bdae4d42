import { randomBytes, randomUUID } from 'node:crypto';
import {
  createMerchant,
  createOrder,
  eventsOf,
  issueTestToken,
  readStream,
  requestToken,
  startStack,
  type TestStack,
} from '@od/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * SPEC Errors table, the rows a service decides (auth, orders), and Idempotency-Key through HTTP.
 * Gateway-only rows are in errors-catalogue.test.ts.
 */
let stack: TestStack;
let merchantId: string;
let token: string;

beforeAll(async () => {
  stack = await startStack({ services: ['auth', 'catalog', 'orders'], gateways: 2 });
  merchantId = (await createMerchant(stack)).merchantId;
  token = (await issueTestToken(stack, { merchantId })).token;
});
afterAll(async () => {
  await stack?.stop();
});

const act = (
  orderId: string,
  action: string,
  opts: { key?: string; body?: unknown; gw?: number; tok?: string } = {},
) =>
  stack.api(
    `/v1/orders/${orderId}/${action}`,
    {
      method: 'POST',
      headers: {
        authorization: `Bearer ${opts.tok ?? token}`,
        ...(opts.key !== undefined ? { 'idempotency-key': opts.key } : {}),
        ...(opts.body !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      body: opts.body !== undefined ? JSON.stringify(opts.body) : undefined,
    },
    opts.gw ?? 0,
  );
const situation = async (orderId: string) => {
  const r = await stack.api(`/v1/orders/${orderId}`, { headers: { authorization: `Bearer ${token}` } });
  expect(r.status).toBe(200);
  const o = await r.json();
  const h = await stack.admin('GET', `/admin/v1/orders/${orderId}`);
  const admin = await h.json();
  return admin.situation ?? o.situation;
};
async function expectBusiness(r: Response, status: number, error: string) {
  expect(r.status).toBe(status);
  const body = await r.json();
  expect(Object.keys(body).sort()).toEqual(['error', 'message']);
  expect(body.error).toBe(error);
}
const tokenCall = (clientId: string, clientSecret: string) => requestToken(stack, clientId, clientSecret);

describe('rows decided by services', () => {
  it('401 invalid_client: only `error`; unknown credential and wrong secret look the same', async () => {
    const c = await stack.admin('POST', `/admin/v1/merchants/${merchantId}/credentials`, {
      name: 'pdv',
      scopes: ['orders:read'],
      deliveryMode: 'POLLING',
    });
    expect(c.status).toBe(201);
    const { clientId } = await c.json();
    const wrong = await tokenCall(clientId, 'not-the-secret');
    const unknown = await tokenCall(`odc_${randomBytes(12).toString('hex')}`, 'whatever');
    for (const r of [wrong, unknown]) {
      expect(r.status).toBe(401);
      expect(await r.text()).toBe('{"error":"invalid_client"}');
    }
  });

  it('429 { error, error_description } after ten wrong secrets of one credential, Retry-After: 60', async () => {
    // SPEC Limits: the failure limit counts wrong secrets of an existing credential only
    const c = await stack.admin('POST', `/admin/v1/merchants/${merchantId}/credentials`, {
      name: 'pdv-limit',
      scopes: ['orders:read'],
      deliveryMode: 'POLLING',
    });
    const { clientId } = await c.json();
    for (let i = 0; i < 10; i++) expect((await tokenCall(clientId, `w${i}`)).status).toBe(401);
    const r = await tokenCall(clientId, 'w11');
    expect(r.status).toBe(429);
    expect(r.headers.get('retry-after')).toBe('60');
    const body = await r.json();
    expect(Object.keys(body).sort()).toEqual(['error', 'error_description']);
    expect(body.error).toBe('rate_limit_exceeded');
  });

  it('404 order_not_found: unknown GUID and order of another store', async () => {
    await expectBusiness(
      await stack.api(`/v1/orders/${randomUUID()}`, { headers: { authorization: `Bearer ${token}` } }),
      404,
      'order_not_found',
    );
    const other = (await createMerchant(stack, { name: 'Outra loja' })).merchantId;
    const foreign = await createOrder(stack, other);
    await expectBusiness(
      await stack.api(`/v1/orders/${foreign.id}`, { headers: { authorization: `Bearer ${token}` } }),
      404,
      'order_not_found',
    );
    await expectBusiness(await act(foreign.id, 'confirm'), 404, 'order_not_found');
  });

  it('422 invalid_transition: cancelling a DONE order', async () => {
    const o = await createOrder(stack, merchantId);
    expect((await act(o.id, 'confirm')).status).toBe(202);
    expect((await act(o.id, 'delivered')).status).toBe(202);
    await expectBusiness(await act(o.id, 'requestCancellation'), 422, 'invalid_transition');
  });

  it('400 invalid_cancellation_reason: reason of 501 characters; the order stays as it was', async () => {
    const o = await createOrder(stack, merchantId);
    await expectBusiness(
      await act(o.id, 'requestCancellation', { body: { reason: 'r'.repeat(501) } }),
      400,
      'invalid_cancellation_reason',
    );
    const ok = await act(o.id, 'confirm');
    expect(await ok.json()).toEqual({ status: 'accepted', situation: 'ACCEPTED' });
  });
});

describe('Idempotency-Key through HTTP', () => {
  it('same key and request: the recorded 202 is replayed by either gateway, executed once', async () => {
    const o = await createOrder(stack, merchantId);
    const key = `confirm-${randomUUID()}`;
    const first = await act(o.id, 'confirm', { key });
    expect(first.status).toBe(202);
    const firstBody = await first.text();
    expect(JSON.parse(firstBody)).toEqual({ status: 'accepted', situation: 'ACCEPTED' });
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    for (const gw of [1, 0]) {
      const again = await act(o.id, 'confirm', { key, gw });
      expect(again.status).toBe(202);
      expect(await again.text()).toBe(firstBody); // not already_applied: nothing executed
      expect(again.headers.get('idempotent-replayed')).toBe('true');
    }
    // without the key the action really runs again
    expect(await (await act(o.id, 'confirm')).json()).toEqual({
      status: 'already_applied',
      situation: 'ACCEPTED',
    });
  });

  it('same key, other request: 409 idempotency_key_reuse; nothing executed', async () => {
    const o = await createOrder(stack, merchantId);
    const key = randomUUID();
    expect((await act(o.id, 'confirm', { key })).status).toBe(202);
    await expectBusiness(await act(o.id, 'dispatch', { key }), 409, 'idempotency_key_reuse');
    await expectBusiness(
      await act(o.id, 'requestCancellation', { key, body: { reason: 'x' } }),
      409,
      'idempotency_key_reuse',
    );
    expect(await (await act(o.id, 'confirm')).json()).toEqual({
      status: 'already_applied',
      situation: 'ACCEPTED',
    });
    // cancellation bodies are part of the request
    const c = await createOrder(stack, merchantId);
    const ck = randomUUID();
    expect((await act(c.id, 'requestCancellation', { key: ck, body: { reason: 'a' } })).status).toBe(202);
    await expectBusiness(
      await act(c.id, 'requestCancellation', { key: ck, body: { reason: 'b' } }),
      409,
      'idempotency_key_reuse',
    );
  });

  it('keys are per credential', async () => {
    const o = await createOrder(stack, merchantId);
    const other = await issueTestToken(stack, { merchantId });
    const key = randomUUID();
    expect(await (await act(o.id, 'confirm', { key })).json()).toMatchObject({ status: 'accepted' });
    const r = await act(o.id, 'confirm', { key, tok: other.token });
    expect(await r.json()).toMatchObject({ status: 'already_applied' });
  });

  it('404 and 422 answers are recorded too', async () => {
    const missing = randomUUID();
    const k404 = randomUUID();
    const r1 = await act(missing, 'confirm', { key: k404 });
    expect(r1.status).toBe(404);
    const r2 = await act(missing, 'confirm', { key: k404 });
    expect(r2.status).toBe(404);
    expect(r2.headers.get('idempotent-replayed')).toBe('true');
    const o = await createOrder(stack, merchantId);
    expect((await act(o.id, 'confirm')).status).toBe(202);
    expect((await act(o.id, 'delivered')).status).toBe(202);
    const k422 = randomUUID();
    expect((await act(o.id, 'requestCancellation', { key: k422 })).status).toBe(422);
    const again = await act(o.id, 'requestCancellation', { key: k422 });
    expect(again.status).toBe(422);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
  });

  it('key over 128 characters: 400 and nothing executed', async () => {
    const o = await createOrder(stack, merchantId);
    await expectBusiness(
      await act(o.id, 'confirm', { key: 'k'.repeat(129) }),
      400,
      'invalid_idempotency_key',
    );
    expect(await (await act(o.id, 'confirm', { key: 'k'.repeat(128) })).json()).toEqual({
      status: 'accepted',
      situation: 'ACCEPTED',
    });
  });

  it('20 concurrent same-key requests over two gateways execute once (one CONFIRMED event)', async () => {
    const o = await createOrder(stack, merchantId);
    const key = randomUUID();
    const replies = await Promise.all(
      Array.from({ length: 20 }, (_, i) => act(o.id, 'confirm', { key, gw: i % 2 })),
    );
    const bodies = await Promise.all(replies.map((r) => r.json()));
    expect(replies.map((r) => r.status)).toEqual(Array(20).fill(202));
    // a second execution would have answered already_applied
    for (const b of bodies) expect(b).toEqual({ status: 'accepted', situation: 'ACCEPTED' });
    expect(replies.filter((r) => r.headers.get('idempotent-replayed') === 'true')).toHaveLength(19);
    const deadline = Date.now() + 10_000;
    let confirmed = 0;
    while (Date.now() < deadline) {
      const events = eventsOf(await readStream(stack.config.NATS_URL, stack.prefix), o.id);
      confirmed = events.filter((e) => e.message.envelope.eventType === 'CONFIRMED').length;
      if (confirmed > 0) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    await new Promise((r) => setTimeout(r, 300));
    const events = eventsOf(await readStream(stack.config.NATS_URL, stack.prefix), o.id);
    expect(events.filter((e) => e.message.envelope.eventType === 'CONFIRMED')).toHaveLength(1);
  });
});

describe('Redis unreachable (last: it cuts this stack off Redis)', () => {
  it('keyed action: 503 retryable, nothing executed; unkeyed: executes; limits counted by the replica', async () => {
    const o = await createOrder(stack, merchantId);
    const gw = stack.gateways[1];
    gw.ctx.redis.disconnect();
    const before = gw.ctx.limiter.stats().fallback;
    const keyed = await act(o.id, 'confirm', { key: randomUUID(), gw: 1 });
    expect(keyed.status).toBe(503);
    expect(keyed.headers.get('retry-after')).toBeTruthy();
    expect((await keyed.json()).error).toBe('service_unavailable');
    expect(await situation(o.id)).toBe('PENDING');
    const plain = await act(o.id, 'confirm', { gw: 1 });
    expect(await plain.json()).toEqual({ status: 'accepted', situation: 'ACCEPTED' });
    expect(gw.ctx.limiter.stats().fallback).toBeGreaterThan(before);
    // SPEC's limits still hold without Redis: the 61st token request of an address in a minute is 429
    const token = () =>
      stack.api(
        '/oauth/token',
        {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: `grant_type=client_credentials&client_id=odc_${'0'.repeat(24)}&client_secret=x`,
        },
        1,
      );
    const answers: number[] = [];
    for (let i = 0; i < 61; i++) answers.push((await token()).status);
    expect(answers.filter((s) => s === 401)).toHaveLength(60);
    const last = await token();
    expect(answers.at(-1)).toBe(429);
    expect(last.status).toBe(429);
    expect(last.headers.get('retry-after')).toBe('60');
  });
});
