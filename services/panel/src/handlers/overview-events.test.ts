import {
  type HttpsReceiver,
  requestToken,
  startHttpsReceiver,
  startStack,
  type TestStack,
} from '@od/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PanelClient, storeUser } from '../test-helpers.ts';

/**
 * The events screen's server-side filters (type, ack state, failed webhooks) with the delivery and
 * the order number beside each event, the test event, and the overview, through the panel's HTTP
 * API on the real stack.
 */
describe('panel events, test event and overview', () => {
  let stack: TestStack;
  let rx: HttpsReceiver;
  let owner: PanelClient;
  let merchantId: string;
  let clientId: string;
  let clientSecret: string;
  const orders: { id: string; displayId: string }[] = [];
  const store = (p: string) => `/panel/api/stores/${merchantId}${p}`;
  const events = async (q: string) => {
    const r = await owner.call('GET', store(`/credentials/${clientId}/events?${q}`));
    expect(r.status, await r.clone().text()).toBe(200);
    return (await r.json()) as {
      items: {
        eventType: string;
        orderId: string;
        displayId: string | null;
        delivery: { status: string } | null;
      }[];
      next: string | null;
    };
  };

  beforeAll(async () => {
    stack = await startStack({
      panel: true,
      env: { RATE_LIMIT_ENABLED: 'false', WEBHOOK_RETRY_SCALE: '0.002' },
    });
    rx = await startHttpsReceiver({ status: 500, body: 'receiver down for maintenance' });
    const u = await storeUser(stack, 'OWNER');
    owner = u.client;
    merchantId = u.merchantId;
    const c = await owner.call('POST', store('/credentials'), {
      name: 'PDV',
      scopes: ['orders:read', 'orders:write'],
      deliveryMode: 'BOTH',
      webhookUrl: `${rx.url}/hook`,
    });
    expect(c.status).toBe(201);
    ({ clientId, clientSecret } = await c.json());
    for (let i = 0; i < 3; i++) {
      const o = await stack.admin('POST', `/admin/v1/merchants/${merchantId}/orders`, { type: 'DELIVERY' });
      orders.push(await o.json());
    }
    const a = await owner.call('POST', store(`/orders/${orders[0].id}/actions/confirm`));
    expect(a.status).toBe(202);
  }, 120_000);
  afterAll(async () => {
    await rx?.close();
    await stack?.stop();
  });

  it('filters by type in the feed query: every page is full, with the order number', async () => {
    await expect.poll(async () => (await events('limit=50')).items.length, { timeout: 10_000 }).toBe(4);
    const first = await events('limit=2&eventType=CREATED');
    expect(first.items.map((e) => e.eventType)).toEqual(['CREATED', 'CREATED']);
    expect(first.next).not.toBeNull();
    const second = await events(`limit=2&eventType=CREATED&page=${first.next}`);
    expect(second.items.map((e) => e.eventType)).toEqual(['CREATED']);
    expect(second.next).toBeNull();
    const confirmed = await events('eventType=CONFIRMED');
    expect(confirmed.items.map((e) => [e.orderId, e.displayId])).toEqual([
      [orders[0].id, orders[0].displayId],
    ]);
    expect((await owner.call('GET', store(`/credentials/${clientId}/events?eventType=x;drop`))).status).toBe(
      400,
    );
  });

  it('lists failed webhook deliveries on the server, the delivery beside each event', async () => {
    await expect
      .poll(async () => (await events('delivery=failed&limit=50')).items.length, { timeout: 20_000 })
      .toBe(4);
    const failed = await events('delivery=failed&eventType=CONFIRMED');
    expect(failed.items.map((e) => [e.eventType, e.delivery?.status])).toEqual([
      ['CONFIRMED', 'WEBHOOK_FAILED'],
    ]);
    const all = await events('state=pending');
    expect(all.items.every((e) => e.delivery?.status === 'WEBHOOK_FAILED')).toBe(true);
  });

  it('sends a signed TEST envelope and answers what the receiver said; nothing is stored', async () => {
    const before = rx.requests.length;
    const attempts = async () =>
      (await (await owner.call('GET', store(`/credentials/${clientId}/webhook-attempts?limit=100`))).json())
        .items.length as number;
    const attemptsBefore = await attempts();
    const r = await owner.call('POST', store(`/credentials/${clientId}/webhook-test`));
    expect(r.status, await r.clone().text()).toBe(200);
    const body = await r.json();
    expect(body).toMatchObject({
      statusCode: 500,
      success: false,
      responseBody: 'receiver down for maintenance',
    });
    const [req] = (await rx.waitFor(before + 1, 5000)).slice(before);
    expect(JSON.parse(req.rawBody)).toMatchObject({ eventId: body.eventId, eventType: 'TEST' });
    expect(req.headers['webhook-signature']).toMatch(/^v1,/);
    expect(await attempts()).toBe(attemptsBefore);
    expect((await events('limit=50')).items.map((e) => e.eventType)).not.toContain('TEST');
  });

  it("overview: today's orders, open by state, integration health (OWNER only); other stores 404", async () => {
    const bearer = (await (await requestToken(stack, clientId, clientSecret)).json()).access_token;
    expect(
      (await stack.api('/v1/events:polling', { headers: { authorization: `Bearer ${bearer}` } })).status,
    ).toBe(200);
    const since = new Date(Date.now() - 3_600_000).toISOString();
    const r = await owner.call('GET', store(`/overview?since=${encodeURIComponent(since)}`));
    expect(r.status, await r.clone().text()).toBe(200);
    const o = await r.json();
    expect(o.today.orders).toBe(3);
    expect(o.today.sales).toBeGreaterThan(0);
    expect(o.open).toEqual({ PENDING: 2, ACCEPTED: 1 });
    expect(o.integrations).toHaveLength(1);
    expect(o.integrations[0]).toMatchObject({ clientId, pending: 4, consecutiveFailures: 4 });
    expect(o.integrations[0].lastPollAt).not.toBeNull();
    expect(o.integrations[0].lastDeliveredAt).toBeNull();
    const later = await owner.call(
      'GET',
      store(`/overview?since=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`),
    );
    expect((await later.json()).today.orders).toBe(0);

    const staff = await storeUser(stack, 'STAFF', { merchantId });
    const s = await staff.client.call('GET', store(`/overview?since=${encodeURIComponent(since)}`));
    expect(s.status).toBe(200);
    expect(await s.json()).not.toHaveProperty('integrations');
    const other = await storeUser(stack, 'OWNER');
    const cross = await other.client.call('GET', store(`/overview?since=${encodeURIComponent(since)}`));
    expect(cross.status).toBe(404);
    expect((await owner.call('GET', store('/overview?since=ontem'))).status).toBe(400);
  });
});
