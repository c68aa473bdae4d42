import {
  createMerchant,
  createOrder,
  type HttpsReceiver,
  type ReceivedRequest,
  startHttpsReceiver,
  startStack,
  type TestStack,
} from '@od/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createOdClient,
  type EventEnvelope,
  MemoryTokenStore,
  OdApiError,
  OdAuthError,
  type Order,
  type Profile,
  verifyWebhook,
  WebhookVerificationError,
} from './index.ts';

// @od/client against the whole stack (every service, real token endpoint, real webhook deliveries),
// as an integrator uses it: both profiles, the consumer loop, the extensions, webhook verification.
describe('@od/client against the real stack', () => {
  let stack: TestStack;
  let rx: HttpsReceiver;
  let merchantId: string;

  const credential = async (body: Record<string, unknown>) => {
    const res = await stack.admin('POST', `/admin/v1/merchants/${merchantId}/credentials`, {
      name: 'pdv',
      scopes: ['orders:read', 'orders:write', 'merchant:read', 'catalog:read'],
      deliveryMode: 'POLLING',
      ...body,
    });
    expect(res.status).toBe(201);
    return (await res.json()) as { clientId: string; clientSecret: string; webhookSecret?: string };
  };
  const known = async (clientId: string, what: 'events' | 'webhook') => {
    for (
      let i = 0;
      (await stack.admin('GET', `/admin/v1/credentials/${clientId}/${what}`)).status !== 200;
      i++
    ) {
      if (i > 300) throw new Error(`credential never reached the ${what} service`);
      await new Promise((r) => setTimeout(r, 20));
    }
  };
  const sdk = <P extends Profile = 'SPEC'>(c: { clientId: string; clientSecret: string }, profile?: P) =>
    createOdClient<P>({
      baseUrl: stack.gateway.publicUrl,
      clientId: c.clientId,
      clientSecret: c.clientSecret,
      merchantId,
      profile,
      retry: { attempts: 3, baseMs: 50, maxMs: 200 },
    });

  beforeAll(async () => {
    [stack, rx] = await Promise.all([
      startStack({ env: { RATE_LIMIT_ENABLED: 'false', WEBHOOK_RETRY_SCALE: '0.1' } }),
      startHttpsReceiver({ status: 204 }),
    ]);
    ({ merchantId } = await createMerchant(stack));
  });
  afterAll(async () => {
    await rx?.close();
    await stack?.stop();
  });

  it('runs the whole SPEC cycle with events.consume: orders driven to DONE, every event acknowledged', async () => {
    const c = await credential({});
    await known(c.clientId, 'events');
    const od = sdk(c);
    expect(await od.merchant.get()).toMatchObject({ id: merchantId });
    const menus = (await od.merchant.menus()) as { items: unknown[] }[];
    expect(menus).toHaveLength(1);

    const delivery = await createOrder(stack, merchantId, { type: 'DELIVERY' });
    const takeout = await createOrder(stack, merchantId, { type: 'TAKEOUT' });
    const next: Record<
      string,
      Record<
        string,
        'confirm' | 'startPreparation' | 'dispatch' | 'readyForPickup' | 'delivered' | 'pickedUp'
      >
    > = {
      DELIVERY: {
        CREATED: 'confirm',
        CONFIRMED: 'startPreparation',
        PREPARING: 'dispatch',
        DISPATCHED: 'delivered',
      },
      TAKEOUT: { CREATED: 'confirm', CONFIRMED: 'readyForPickup', READY_FOR_PICKUP: 'pickedUp' },
    };
    const seen: string[] = [];
    const ac = new AbortController();
    const stats = await od.events.consume(
      async (event: EventEnvelope, { order }) => {
        const o = (await order()) as Order & { id: string; type: string };
        expect(o.id).toBe(event.orderId);
        seen.push(`${o.type}:${event.eventType}`);
        const action = next[o.type]?.[event.eventType];
        if (action) {
          const r = (await od.orders[action](o.id)) as { status: string };
          expect(r.status).toBe('accepted');
        }
        if (seen.filter((s) => s.endsWith(':CONCLUDED')).length === 2) ac.abort();
      },
      { signal: ac.signal, idle: { minMs: 50, maxMs: 200 } },
    );
    expect(seen.filter((s) => s.startsWith('DELIVERY:'))).toEqual(
      ['CREATED', 'CONFIRMED', 'PREPARING', 'DISPATCHED', 'CONCLUDED'].map((t) => `DELIVERY:${t}`),
    );
    expect(seen.filter((s) => s.startsWith('TAKEOUT:'))).toEqual(
      ['CREATED', 'CONFIRMED', 'READY_FOR_PICKUP', 'CONCLUDED'].map((t) => `TAKEOUT:${t}`),
    );
    expect(stats.handled).toBe(9);
    expect(stats.acknowledged).toBe(9);
    expect(await od.events.poll()).toEqual([]);
    expect(await od.orders.get(delivery.id)).toMatchObject({ id: delivery.id });

    // the extensions: the day's orders and events, page after page
    const listed = [];
    for await (const o of od.orders.listAll({ limit: 1 })) listed.push(o);
    expect(listed.map((o) => o.id).sort()).toEqual([delivery.id, takeout.id].sort());
    expect(listed.every((o) => o.situation === 'DONE')).toBe(true);
    const history = [];
    for await (const e of od.events.historyAll({ limit: 4 })) history.push(e);
    expect(history).toHaveLength(9);
    expect(history.every((e) => typeof e.acknowledgedAt === 'string')).toBe(true);
  });

  it('keeps the Idempotency-Key of a logical action; typed errors for 404, 422 and 400', async () => {
    const od = sdk(await credential({}));
    const order = await createOrder(stack, merchantId, { type: 'DELIVERY' });
    const first = await od.orders.confirm(order.id, { idempotencyKey: `k-${order.id}` });
    const replay = await od.orders.confirm(order.id, { idempotencyKey: `k-${order.id}` });
    expect(replay).toEqual(first);
    expect(await od.orders.confirm(order.id)).toEqual({ status: 'already_applied', situation: 'ACCEPTED' });
    const reuse = await od.orders
      .dispatch(order.id, { idempotencyKey: `k-${order.id}` })
      .catch((e: unknown) => e);
    expect(reuse).toMatchObject({ status: 409, error: 'idempotency_key_reuse', kind: 'conflict' });
    const missing = await od.orders.get('0b6f8f0e-4a53-4a8e-9a4b-0c4f2b7d9e11').catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(OdApiError);
    expect(missing).toMatchObject({ status: 404, error: 'order_not_found', kind: 'not_found' });
    const tooLong = await od.orders
      .requestCancellation(order.id, { reason: 'x'.repeat(501) })
      .catch((e: unknown) => e);
    expect(tooLong).toMatchObject({ status: 400, error: 'invalid_cancellation_reason', kind: 'validation' });
    const cancelled = await od.orders.requestCancellation(order.id, { reason: 'cliente desistiu' });
    expect(cancelled).toEqual({ status: 'accepted', situation: 'CANCELLED' });
    const invalid = await od.orders.delivered(order.id).catch((e: unknown) => e);
    expect(invalid).toMatchObject({ status: 422, error: 'invalid_transition', kind: 'state' });
    expect((invalid as OdApiError).traceId).toBeTruthy();
    const badRange = await od.orders.list({ limit: 500 } as never).catch((e: unknown) => e);
    expect(badRange).toMatchObject({ status: 400, kind: 'validation' });
    expect((badRange as OdApiError).fieldErrors).toHaveProperty('limit');
  });

  it('a token the API no longer accepts (bodiless 401) is replaced once, and the call goes through', async () => {
    const c = await credential({});
    const tokenStore = new MemoryTokenStore();
    const key = `od-token:${stack.gateway.publicUrl}:${c.clientId}`;
    const far = Date.now() + 3_600_000;
    await tokenStore.set(key, {
      accessToken: 'eyJhbGciOiJIUzI1NiJ9.e30.expired',
      expiresAt: far,
      renewAt: far,
    });
    const od = createOdClient({ baseUrl: stack.gateway.publicUrl, ...c, merchantId, tokenStore });
    expect(await od.merchant.get()).toMatchObject({ id: merchantId });
    expect(od.tokens.requests).toBe(1);
    expect((await tokenStore.get(key))?.accessToken).not.toContain('expired');
  });

  it('consume stops with OdAuthError (invalid_token) when the credential is revoked', async () => {
    const c = await credential({});
    await known(c.clientId, 'events');
    const od = sdk(c);
    await createOrder(stack, merchantId, { type: 'DELIVERY' });
    let handled = 0;
    const run = od.events.consume(
      async () => {
        handled++;
        const r = await stack.admin('POST', `/admin/v1/credentials/${c.clientId}/revoke`);
        expect(r.status).toBe(200);
      },
      { idle: { minMs: 50, maxMs: 100 } },
    );
    const e = await run.catch((x: unknown) => x);
    expect(e).toBeInstanceOf(OdAuthError);
    expect((e as OdAuthError).credentialRejected).toBe(true);
    expect(handled).toBeGreaterThanOrEqual(1);
  });

  it('serves the OPEN_DELIVERY profile typed from the official document', async () => {
    const c = await credential({ apiProfile: 'OPEN_DELIVERY' });
    await known(c.clientId, 'events');
    const od = sdk(c, 'OPEN_DELIVERY');
    const order = await createOrder(stack, merchantId, { type: 'DELIVERY' });
    let events: EventEnvelope<'OPEN_DELIVERY'>[] = [];
    for (let i = 0; i < 200 && !events.some((e) => e.orderId === order.id); i++) {
      events = await od.events.poll();
      if (!events.length) await new Promise((r) => setTimeout(r, 50));
    }
    const created = events.find((e) => e.orderId === order.id);
    expect(created?.eventType).toBe('CREATED');
    const o: Order<'OPEN_DELIVERY'> = await od.orders.get(order.id);
    expect(o.id).toBe(order.id);
    expect(o.total.orderAmount.currency).toBe('BRL');
    expect(await od.orders.confirm(order.id)).toBeUndefined(); // the standard's 202 has no content
    await od.events.ack(events);
    expect((await od.events.poll()).some((e) => e.eventId === created?.eventId)).toBe(false);
  });

  it('verifies real webhook deliveries of both schemes, and refuses altered ones', async () => {
    const spec = await credential({ deliveryMode: 'WEBHOOK', webhookUrl: `${rx.url}/spec` });
    const odc = await credential({
      apiProfile: 'OPEN_DELIVERY',
      deliveryMode: 'WEBHOOK',
      webhookUrl: `${rx.url}/od`,
    });
    await Promise.all([known(spec.clientId, 'webhook'), known(odc.clientId, 'webhook')]);
    const order = await createOrder(stack, merchantId, { type: 'DELIVERY' });
    const of = (path: string) => (r: ReceivedRequest) => r.path === path && r.rawBody.includes(order.id);
    const [s] = await rx.waitFor(1, 20_000, of('/spec'));
    const [o] = await rx.waitFor(1, 20_000, of('/od/v1/newEvent'));
    expect(verifyWebhook(s.rawBody, s.headers, spec.webhookSecret ?? '')).toMatchObject({
      orderId: order.id,
      eventType: 'CREATED',
    });
    expect(verifyWebhook<'OPEN_DELIVERY'>(o.rawBody, o.headers, odc.clientSecret)).toMatchObject({
      orderId: order.id,
      eventType: 'CREATED',
    });
    const altered = s.rawBody.replace('CREATED', 'CANCELLED');
    expect(() => verifyWebhook(altered, s.headers, spec.webhookSecret ?? '')).toThrow(
      WebhookVerificationError,
    );
    expect(() => verifyWebhook(o.rawBody, o.headers, spec.clientSecret)).toThrow(WebhookVerificationError);
    // a delivery replayed after 5 minutes is refused
    expect(() =>
      verifyWebhook(s.rawBody, s.headers, spec.webhookSecret ?? '', { now: Date.now() + 301_000 }),
    ).toThrow(WebhookVerificationError);
  });
});
