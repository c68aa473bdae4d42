import { randomUUID } from 'node:crypto';
import { type OdValidator, odValidator } from '@od/opendelivery/validator';
import { requestToken, startStack, type TestStack } from '@od/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// A credential with apiProfile OPEN_DELIVERY is served the official 1.4.0 contract through the real
// stack; every response body is validated against the official document. A SPEC credential of the
// same store keeps SPEC's shapes.
describe('OPEN_DELIVERY profile through the real stack', () => {
  let stack: TestStack;
  let od: OdValidator;
  let merchantId: string;
  let odToken: string;
  let specToken: string;

  const json = async (r: Response) => {
    const text = await r.text();
    return text ? JSON.parse(text) : undefined;
  };
  const admin = async (method: string, path: string, body?: unknown) => {
    const r = await stack.admin(method, path, body);
    return { status: r.status, body: await json(r) };
  };
  const credential = async (apiProfile: string) => {
    const r = await admin('POST', `/admin/v1/merchants/${merchantId}/credentials`, {
      name: `pdv ${apiProfile}`,
      scopes: ['orders:read', 'orders:write', 'merchant:read', 'catalog:read'],
      deliveryMode: 'POLLING',
      includeMarketplaceOrders: true,
      apiProfile,
    });
    expect(r.status).toBe(201);
    const t = await requestToken(stack, r.body.clientId, r.body.clientSecret);
    expect(t.status).toBe(200);
    return ((await t.json()) as { access_token: string }).access_token;
  };
  const call = (token: string, method: string, path: string, init: RequestInit = {}) =>
    stack.api(path, {
      method,
      ...init,
      headers: { authorization: `Bearer ${token}`, ...(init.headers as Record<string, string>) },
    });
  const createOrder = async (body: Record<string, unknown>) => {
    const r = await admin('POST', `/admin/v1/merchants/${merchantId}/orders`, body);
    expect(r.status).toBe(201);
    return r.body.id as string;
  };
  /** polls until `n` events are pending (feed intake is asynchronous) */
  const pollUntil = async (token: string, query: string, n: number, headers: Record<string, string> = {}) => {
    const deadline = Date.now() + 10_000;
    for (;;) {
      const r = await call(token, 'GET', `/v1/events:polling${query}`, { headers });
      const body = await json(r);
      if ((Array.isArray(body) && body.length >= n) || Date.now() > deadline) return { r, body };
      await new Promise((res) => setTimeout(res, 100));
    }
  };

  beforeAll(async () => {
    od = await odValidator();
    stack = await startStack({ env: { RATE_LIMIT_ENABLED: 'false' } });
    const m = await admin('POST', '/admin/v1/merchants', { name: 'Pizzaria Padrão' });
    merchantId = m.body.id;
    odToken = await credential('OPEN_DELIVERY');
    specToken = await credential('SPEC');
  });
  afterAll(async () => stack?.stop());

  it('GET order: the standard Order for OPEN_DELIVERY, SPEC shape for SPEC', async () => {
    const id = await createOrder({ type: 'DELIVERY' });
    const r = await call(odToken, 'GET', `/v1/orders/${id}`);
    expect(r.status).toBe(200);
    const order = await json(r);
    expect(od.response('ordersDetails', 200, order)).toEqual([]);
    expect(order.total.itemsPrice).toBeDefined();
    const spec = await json(await call(specToken, 'GET', `/v1/orders/${id}`));
    expect(spec.total.items).toBeDefined();
    expect(spec.test).toBe(false);
  });

  it('polling: standard envelopes only, eventType filter acknowledges what it leaves out', async () => {
    const id = await createOrder({ type: 'DELIVERY' });
    const created = await pollUntil(odToken, '', 1);
    expect(created.r.status).toBe(200);
    expect(od.response('pollingEvents', 200, created.body)).toEqual([]);
    for (const e of created.body) expect(od.event(e)).toEqual([]);
    await call(odToken, 'POST', '/v1/events/acknowledgment', {
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(created.body.map((e: { eventId: string }) => ({ id: e.eventId }))),
    });
    // confirm (202, empty body as the standard's Accepted), then startPreparation (an extension:
    // PREPARING is not a 1.4.0 event) and dispatch
    for (const action of ['confirm', 'startPreparation', 'dispatch']) {
      const a = await call(odToken, 'POST', `/v1/orders/${id}/${action}`);
      expect(a.status).toBe(202);
      expect(await a.text()).toBe('');
    }
    // only DISPATCHED selected: CONFIRMED and PREPARING are acknowledged for the caller and omitted
    const page = await pollUntil(odToken, '?eventType=DISPATCHED', 1);
    expect(page.body.map((e: { eventType: string }) => e.eventType)).toEqual(['DISPATCHED']);
    expect(od.response('pollingEvents', 200, page.body)).toEqual([]);
    const again = await json(await call(odToken, 'GET', '/v1/events:polling'));
    expect(again.map((e: { eventType: string }) => e.eventType)).toEqual(['DISPATCHED']);
    // the SPEC credential still sees every event, extensions included
    const spec = await pollUntil(specToken, '', 5);
    expect(spec.body.map((e: { eventType: string }) => e.eventType)).toEqual(
      expect.arrayContaining(['CREATED', 'CONFIRMED', 'PREPARING', 'DISPATCHED']),
    );
  });

  it('x-polling-merchants without the credential store answers an empty page; bad filters are 400 problems', async () => {
    const other = await call(odToken, 'GET', '/v1/events:polling', {
      headers: { 'x-polling-merchants': randomUUID() },
    });
    expect(other.status).toBe(200);
    expect(await json(other)).toEqual([]);
    const mine = await call(odToken, 'GET', '/v1/events:polling', {
      headers: { 'x-polling-merchants': merchantId },
    });
    expect((await json(mine)).length).toBeGreaterThan(0);
    const bad = await call(odToken, 'GET', '/v1/events:polling?eventType=PREPARING');
    expect(bad.status).toBe(400);
    expect(bad.headers.get('content-type')).toContain('application/problem+json');
    expect(od.response('pollingEvents', 400, await json(bad))).toEqual([]);
  });

  it('errors in the standard form and media type', async () => {
    const missing = await call(odToken, 'GET', `/v1/orders/${randomUUID()}`);
    expect(missing.status).toBe(404);
    expect(missing.headers.get('content-type')).toContain('application/problem+json');
    const body = await json(missing);
    expect(od.response('ordersDetails', 404, body)).toEqual([]);
    expect(body).toMatchObject({ status: 404, error: 'order_not_found' });
    const id = await createOrder({ type: 'INDOOR' });
    const wrong = await call(odToken, 'POST', `/v1/orders/${id}/dispatch`);
    expect(wrong.status).toBe(422);
    expect(od.response('dispatchOrder', 422, await json(wrong))).toEqual([]);
    // SPEC form unchanged for a SPEC credential
    const specMissing = await call(specToken, 'GET', `/v1/orders/${randomUUID()}`);
    expect(specMissing.headers.get('content-type')).toContain('application/json');
    expect(await json(specMissing)).toMatchObject({ error: 'order_not_found', message: expect.any(String) });
  });

  it('GET /v1/versions/orderingApp answers the standard shape without authentication', async () => {
    const r = await stack.api('/v1/versions/orderingApp');
    expect(r.status).toBe(200);
    expect(od.response('getOrderingAppVersions', 200, await json(r))).toEqual([]);
  });
});
