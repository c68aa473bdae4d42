import { randomUUID } from 'node:crypto';
import {
  ack,
  bearerOf,
  eventually,
  issueTestToken,
  type Publisher,
  poll,
  publisher,
  sleep,
  startStack,
  type TestStack,
} from '@od/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

describe('event feed: polling and acknowledgment', () => {
  let stack: TestStack;
  let pub: Publisher;
  beforeAll(async () => {
    stack = await startStack({ services: ['feed'] });
    pub = await publisher(stack);
  });
  afterAll(async () => {
    await pub?.close();
    await stack?.stop();
  });

  it('answers 200 [] when nothing is pending, never 204', async () => {
    const { token } = await issueTestToken(stack, { scopes: ['orders:read'] });
    const res = await stack.api('/v1/events:polling', bearerOf(token));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/application\/json/);
    expect(await res.text()).toBe('[]');
  });

  it('returns pending events oldest first, again on every call, until acknowledged', async () => {
    const { token, merchantId } = await issueTestToken(stack, { scopes: ['orders:read'] });
    const sent = [];
    for (let i = 0; i < 5; i++) sent.push(await pub.publish(merchantId));
    const got = await eventually(
      () => poll(stack, token),
      (v) => v.length === 5,
    );
    expect(got).toEqual(sent);
    expect(await poll(stack, token)).toEqual(sent);
    const res = await ack(stack, token, [sent[0].eventId, sent[1].eventId]);
    expect(res.status).toBe(202);
    expect(await res.json()).toEqual({ acknowledged: 2 });
    expect(await poll(stack, token)).toEqual(sent.slice(2));
    // repeated and unknown ids are harmless and count 0
    const again = await ack(stack, token, [sent[0].eventId, randomUUID(), sent[2].eventId, sent[2].eventId]);
    expect(await again.json()).toEqual({ acknowledged: 1 });
    expect(await poll(stack, token)).toEqual(sent.slice(3));
  });

  it('serves the alias path /v1/events/:polling identically', async () => {
    const { token, merchantId } = await issueTestToken(stack, { scopes: ['orders:read'] });
    const e = await pub.publish(merchantId);
    await eventually(
      () => poll(stack, token),
      (v) => v.length === 1,
    );
    const res = await stack.api('/v1/events/:polling', bearerOf(token));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual([e]);
  });

  it('applies limit: default 100, at most 200, oldest first and stable', async () => {
    const { token, merchantId } = await issueTestToken(stack, { scopes: ['orders:read'] });
    const base = Date.now();
    const sent = [];
    for (let i = 0; i < 205; i++)
      sent.push(await pub.publish(merchantId, { createdAt: new Date(base + i).toISOString() }));
    await eventually(
      () => poll(stack, token, '?limit=200'),
      (v) => v.length === 200,
    );
    const def = await poll(stack, token);
    expect(def).toHaveLength(100);
    expect(def).toEqual(sent.slice(0, 100));
    expect(await poll(stack, token, '?limit=200')).toEqual(sent.slice(0, 200));
    expect(await poll(stack, token, '?limit=1')).toEqual(sent.slice(0, 1));
    expect(await poll(stack, token, '?limit=7')).toEqual(sent.slice(0, 7));
  });

  it('rejects an invalid limit with 400 ValidationProblemDetails', async () => {
    const { token } = await issueTestToken(stack, { scopes: ['orders:read'] });
    for (const q of ['0', '201', '-1', '1.5', 'abc', '', '10&limit=20']) {
      const res = await stack.api(`/v1/events:polling?limit=${q}`, {
        headers: { authorization: `Bearer ${token}`, 'x-request-id': 'trace-limit' },
      });
      expect(res.status, `limit=${q}`).toBe(400);
      const body = await res.json();
      expect(body).toEqual({
        type: expect.any(String),
        title: expect.any(String),
        status: 400,
        errors: { limit: expect.any(Array) },
        traceId: 'trace-limit',
      });
    }
  });

  it('rejects invalid acknowledgment bodies with 400 ValidationProblemDetails', async () => {
    const { token } = await issueTestToken(stack, { scopes: ['orders:read'] });
    const post = (body: string, type = 'application/json') =>
      stack.api('/v1/events/acknowledgment', {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': type },
        body,
      });
    const r1 = await post(JSON.stringify([{ id: randomUUID() }, {}]));
    expect(r1.status).toBe(400);
    const b1 = await r1.json();
    expect(b1).toMatchObject({ status: 400, title: expect.any(String), type: expect.any(String) });
    expect(Object.keys(b1.errors)).toEqual(['[1].id']);
    expect(typeof b1.traceId).toBe('string');
    const r2 = await post(JSON.stringify([{ id: 'not-a-guid' }]));
    expect(r2.status).toBe(400);
    expect(Object.keys((await r2.json()).errors)).toEqual(['[0].id']);
    const r3 = await post(JSON.stringify({ id: randomUUID() }));
    expect(r3.status).toBe(400);
    expect((await r3.json()).errors).toBeTypeOf('object');
    const r4 = await post(JSON.stringify(Array.from({ length: 1001 }, () => ({ id: randomUUID() }))));
    expect(r4.status).toBe(400);
    const r5 = await post('[{"id":');
    expect(r5.status).toBe(400);
    expect((await r5.json()).status).toBe(400);
    const r6 = await post(JSON.stringify([]));
    expect(r6.status).toBe(202);
    expect(await r6.json()).toEqual({ acknowledged: 0 });
  });

  it('answers an acknowledgment without body with 400 ValidationProblemDetails', async () => {
    const { token } = await issueTestToken(stack, { scopes: ['orders:read'] });
    const res = await stack.api('/v1/events/acknowledgment', { method: 'POST', ...bearerOf(token) });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({
      status: 400,
      errors: expect.any(Object),
      traceId: expect.any(String),
    });
  });

  it('documents both polling paths, limit and the 400 answers in the OpenAPI document', async () => {
    const doc = await (await stack.api('/docs/json')).json();
    for (const p of ['/v1/events:polling', '/v1/events/:polling']) {
      const get = doc.paths[p]?.get;
      expect(get, p).toBeDefined();
      expect(get.parameters).toEqual([
        expect.objectContaining({
          in: 'query',
          name: 'limit',
          required: false,
          schema: expect.objectContaining({ minimum: 1, maximum: 200 }),
        }),
      ]);
      expect(Object.keys(get.responses)).toEqual(expect.arrayContaining(['200', '400']));
    }
    expect(doc.paths['/v1/events/:polling'].get.deprecated).toBe(true);
    const ackDoc = doc.paths['/v1/events/acknowledgment'].post;
    expect(Object.keys(ackDoc.responses)).toEqual(expect.arrayContaining(['202', '400']));
    expect(ackDoc.requestBody.content['application/json'].schema.type).toBe('array');
  });

  it('needs a token with orders:read', async () => {
    const none = await stack.api('/v1/events:polling');
    expect(none.status).toBe(401);
    expect(await none.text()).toBe('');
    const { token } = await issueTestToken(stack, { scopes: ['merchant:read'] });
    const res = await stack.api('/v1/events:polling', bearerOf(token));
    expect(res.status).toBe(403);
    expect((await res.json()).error).toBe('insufficient_scope');
    const a = await ack(stack, token, [randomUUID()]);
    expect(a.status).toBe(403);
  });

  it('gives two credentials of one store the same events, acknowledged independently', async () => {
    const merchantId = randomUUID();
    const a = await issueTestToken(stack, { merchantId, scopes: ['orders:read'] });
    const b = await issueTestToken(stack, { merchantId, scopes: ['orders:read'] });
    const other = await issueTestToken(stack, { scopes: ['orders:read'] });
    await sleep(5);
    const e1 = await pub.publish(merchantId);
    const e2 = await pub.publish(merchantId);
    expect(
      await eventually(
        () => poll(stack, a.token),
        (v) => v.length === 2,
      ),
    ).toEqual([e1, e2]);
    expect(
      await eventually(
        () => poll(stack, b.token),
        (v) => v.length === 2,
      ),
    ).toEqual([e1, e2]);
    expect(await (await ack(stack, a.token, [e1.eventId, e2.eventId])).json()).toEqual({ acknowledged: 2 });
    expect(await poll(stack, a.token)).toEqual([]);
    expect(await poll(stack, b.token)).toEqual([e1, e2]);
    // b acknowledging a's ids again counts only b's entries; another store's credential counts 0
    expect(await (await ack(stack, other.token, [e1.eventId])).json()).toEqual({ acknowledged: 0 });
    expect(await (await ack(stack, b.token, [e1.eventId])).json()).toEqual({ acknowledged: 1 });
    expect(await poll(stack, b.token)).toEqual([e2]);
    expect(await poll(stack, other.token)).toEqual([]);
  });

  it('does not show a credential events created before it', async () => {
    const merchantId = randomUUID();
    const early = await issueTestToken(stack, { merchantId, scopes: ['orders:read'] });
    const before = await pub.publish(merchantId);
    await eventually(
      () => poll(stack, early.token),
      (v) => v.length === 1,
    );
    await sleep(5);
    const late = await issueTestToken(stack, { merchantId, scopes: ['orders:read'] });
    await sleep(5);
    const after = await pub.publish(merchantId);
    expect(
      await eventually(
        () => poll(stack, late.token),
        (v) => v.length >= 1,
      ),
    ).toEqual([after]);
    expect(
      await eventually(
        () => poll(stack, early.token),
        (v) => v.length === 2,
      ),
    ).toEqual([before, after]);
  });

  it('sees an event created after the credential even when the feed learns the credential late', async () => {
    const merchantId = randomUUID();
    // the event is consumed before the credential record exists anywhere: backfill must add it
    const createdAt = new Date(Date.now() - 60_000).toISOString();
    const e = await pub.publish(merchantId, { createdAt: new Date(Date.now() - 1000).toISOString() });
    await sleep(300);
    const c = await issueTestToken(stack, { merchantId, scopes: ['orders:read'], record: { createdAt } });
    expect(
      await eventually(
        () => poll(stack, c.token),
        (v) => v.length === 1,
      ),
    ).toEqual([e]);
  });

  it('leaves marketplace orders out for a credential without the flag', async () => {
    const merchantId = randomUUID();
    const withMp = await issueTestToken(stack, { merchantId, scopes: ['orders:read'] });
    const withoutMp = await issueTestToken(stack, {
      merchantId,
      scopes: ['orders:read'],
      record: { includeMarketplaceOrders: false },
    });
    await sleep(5);
    const mp = await pub.publish(merchantId, { channel: 'MARKETPLACE' });
    const app = await pub.publish(merchantId, { channel: 'APP' });
    expect(
      await eventually(
        () => poll(stack, withMp.token),
        (v) => v.length === 2,
      ),
    ).toEqual([mp, app]);
    expect(
      await eventually(
        () => poll(stack, withoutMp.token),
        (v) => v.length >= 1,
      ),
    ).toEqual([app]);
  });
});
