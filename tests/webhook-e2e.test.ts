import { type AuthTestKit, authTestKit } from '@od/auth/test-support';
import { type HttpsReceiver, startHttpsReceiver, startStack, type TestStack } from '@od/testing';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/** Webhooks through the real services: credential from auth's Admin API, events from orders. */
describe('webhooks end to end (auth + orders + webhook, HTTP only)', () => {
  let stack: TestStack;
  let kit: AuthTestKit;
  let rx: HttpsReceiver;
  let merchantId: string;
  let clientId: string;
  let clientSecret: string;
  let secret: string;
  let token: string;

  const admin = async (method: string, path: string, body?: unknown) => {
    const r = await stack.admin(method, path, body);
    const text = await r.text();
    return { status: r.status, json: text ? JSON.parse(text) : undefined };
  };
  const forEvent = (eventType: string, orderId: string) => (r: { rawBody: string }) => {
    const b = JSON.parse(r.rawBody);
    return b.eventType === eventType && b.orderId === orderId;
  };

  beforeAll(async () => {
    stack = await startStack({ env: { RATE_LIMIT_ENABLED: 'false', WEBHOOK_RETRY_SCALE: '0.1' } });
    kit = await authTestKit(stack);
    rx = await startHttpsReceiver();
    merchantId = await kit.createStore();
    const c = await kit.createCredential(merchantId, {
      deliveryMode: 'BOTH',
      webhookUrl: `${rx.url}/pdv`,
    });
    expect(c.status).toBe(201);
    ({ clientId, clientSecret, webhookSecret: secret } = c.json as any);
    // the webhook service knows the credential (its view of the credentials bucket)
    for (let i = 0; (await admin('GET', `/admin/v1/credentials/${clientId}/webhook`)).status !== 200; i++) {
      if (i > 200) throw new Error('credential never reached the webhook service');
      await new Promise((r) => setTimeout(r, 20));
    }
    const t = await kit.token(clientId, clientSecret);
    token = ((await t.json()) as { access_token: string }).access_token;
  });
  afterAll(async () => {
    await rx?.close();
    await kit?.close();
    await stack?.stop();
  });

  it('refuses http:// webhook URLs when saved', async () => {
    const r = await kit.createCredential(merchantId, {
      deliveryMode: 'WEBHOOK',
      webhookUrl: 'http://pdv.example.com/h',
    });
    expect(r.status).toBe(400);
    const p = await admin('PATCH', `/admin/v1/credentials/${clientId}`, {
      webhookUrl: 'http://pdv.example.com/h',
    });
    expect(p.status).toBe(400);
  });

  it('an order created and confirmed reaches the receiver signed with the credential webhook secret', async () => {
    const o = await admin('POST', `/admin/v1/merchants/${merchantId}/orders`, { type: 'DELIVERY' });
    expect(o.status).toBe(201);
    const orderId = o.json.id;
    const [created] = await rx.waitFor(1, 10_000, forEvent('CREATED', orderId));
    const ev = new Webhook(secret).verify(created.rawBody, created.headers) as Record<string, unknown>;
    expect(ev).toMatchObject({ eventType: 'CREATED', orderId });
    expect(created.headers['x-service-merchant-id']).toBe(merchantId);

    const sentAt = Date.now();
    const c = await stack.api(`/v1/orders/${orderId}/confirm`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(c.status).toBe(202);
    const [confirmed] = await rx.waitFor(1, 10_000, forEvent('CONFIRMED', orderId));
    expect(confirmed.at - sentAt).toBeLessThan(2_000);
    expect(new Webhook(secret).verify(confirmed.rawBody, confirmed.headers)).toMatchObject({
      eventType: 'CONFIRMED',
      orderId,
      sourceAppId: clientId,
    });
    // the webhook does not acknowledge: the event is still pending in the feed (BOTH mode)
    const poll = await stack.api('/v1/events:polling', { headers: { authorization: `Bearer ${token}` } });
    expect(poll.status).toBe(200);
    const pending = (await poll.json()) as { eventId: string }[];
    expect(pending.map((e) => e.eventId)).toContain(JSON.parse(confirmed.rawBody).eventId);

    const log = await admin('GET', `/admin/v1/credentials/${clientId}/webhook-attempts`);
    expect(log.status).toBe(200);
    expect(log.json.items.length).toBeGreaterThanOrEqual(2);
    expect(log.json.items[0]).toMatchObject({ success: true, statusCode: 200 });

    // resend through the Admin API
    const eventId = JSON.parse(confirmed.rawBody).eventId;
    const rs = await admin('POST', `/admin/v1/credentials/${clientId}/events/${eventId}/resend`);
    expect(rs.status).toBe(202);
    const again = await rx.waitFor(2, 10_000, forEvent('CONFIRMED', orderId));
    expect(again[1].rawBody).toBe(confirmed.rawBody);
  });

  it('after a secret rotation both signatures are sent; saving the URL makes a new secret', async () => {
    const rot = await admin('POST', `/admin/v1/credentials/${clientId}/webhook-secret`);
    expect(rot.status).toBe(200);
    const fresh = rot.json.webhookSecret as string;
    expect(fresh).toMatch(/^whsec_/);
    await new Promise((r) => setTimeout(r, 1_100));
    const o = await admin('POST', `/admin/v1/merchants/${merchantId}/orders`, { type: 'TAKEOUT' });
    const [got] = await rx.waitFor(1, 10_000, forEvent('CREATED', o.json.id));
    expect(got.headers['x-service-signature'].split(' ')).toHaveLength(2);
    expect(() => new Webhook(fresh).verify(got.rawBody, got.headers)).not.toThrow();
    expect(() => new Webhook(secret).verify(got.rawBody, got.headers)).not.toThrow();

    const saved = await admin('PATCH', `/admin/v1/credentials/${clientId}`, { webhookUrl: `${rx.url}/pdv2` });
    expect(saved.status).toBe(200);
    const newest = saved.json.webhookSecret as string;
    expect(newest).toMatch(/^whsec_/);
    await new Promise((r) => setTimeout(r, 1_100));
    const o2 = await admin('POST', `/admin/v1/merchants/${merchantId}/orders`, { type: 'DELIVERY' });
    const [moved] = await rx.waitFor(1, 10_000, forEvent('CREATED', o2.json.id));
    expect(moved.path).toBe('/pdv2');
    expect(() => new Webhook(newest).verify(moved.rawBody, moved.headers)).not.toThrow();
  });
});
