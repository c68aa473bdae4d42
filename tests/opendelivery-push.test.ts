import { createHmac, timingSafeEqual } from 'node:crypto';
import { type AuthTestKit, authTestKit } from '@od/auth/test-support';
import { type OdValidator, odValidator } from '@od/opendelivery/validator';
import {
  createOrder,
  type HttpsReceiver,
  type ReceivedRequest,
  startHttpsReceiver,
  startStack,
  type TestStack,
} from '@od/testing';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * A software service's receiver written from the standard's text alone ("Webhook Security":
 * "The value of this field is a lowercased hexadecimal HMAC signature of the webhook HTTP request
 * body, using the client secret as a key and SHA256 as the hash function"). Nothing of the
 * platform's signing code is used here.
 */
function standardReceiverAccepts(req: ReceivedRequest, clientSecret: string): boolean {
  const got = req.headers['x-app-signature'] ?? '';
  if (!/^[0-9a-f]{64}$/.test(got)) return false;
  const want = createHmac('sha256', clientSecret).update(Buffer.from(req.rawBody, 'utf8')).digest();
  return timingSafeEqual(Buffer.from(got, 'hex'), want);
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

describe('Open Delivery newEvent push (auth + orders + webhook, HTTP only)', () => {
  let stack: TestStack;
  let kit: AuthTestKit;
  let rx: HttpsReceiver;
  let od: OdValidator;
  let merchantId: string;
  let odCred: { clientId: string; clientSecret: string };
  let specCred: { clientId: string; clientSecret: string; webhookSecret: string };

  const admin = async (method: string, path: string, body?: unknown) => {
    const r = await stack.admin(method, path, body);
    const text = await r.text();
    return { status: r.status, json: text ? JSON.parse(text) : undefined };
  };
  const known = async (clientId: string) => {
    for (let i = 0; (await admin('GET', `/admin/v1/credentials/${clientId}/webhook`)).status !== 200; i++) {
      if (i > 250) throw new Error('credential never reached the webhook service');
      await new Promise((r) => setTimeout(r, 20));
    }
  };
  const at = (path: string, type: string, orderId: string) => (r: ReceivedRequest) =>
    r.path === path && r.rawBody.includes(orderId) && JSON.parse(r.rawBody).eventType === type;

  beforeAll(async () => {
    [stack, rx, od] = await Promise.all([
      startStack({ env: { RATE_LIMIT_ENABLED: 'false', WEBHOOK_RETRY_SCALE: '0.1' } }),
      startHttpsReceiver({ status: 204 }),
      odValidator(),
    ]);
    kit = await authTestKit(stack);
    merchantId = await kit.createStore();
    const a = await kit.createCredential(merchantId, {
      apiProfile: 'OPEN_DELIVERY',
      deliveryMode: 'WEBHOOK',
      webhookUrl: `${rx.url}/pdv/`,
    });
    const b = await kit.createCredential(merchantId, {
      deliveryMode: 'WEBHOOK',
      webhookUrl: `${rx.url}/spec`,
    });
    expect([a.status, b.status]).toEqual([201, 201]);
    odCred = a.json as typeof odCred;
    specCred = b.json as typeof specCred;
    await Promise.all([known(odCred.clientId), known(specCred.clientId)]);
  });
  afterAll(async () => {
    await rx?.close();
    await kit?.close();
    await stack?.stop();
  });

  it('an OPEN_DELIVERY credential gets POST {url}/v1/newEvent: the standard event, verified by a standard receiver', async () => {
    const order = await createOrder(stack, merchantId);
    const [req] = await rx.waitFor(1, 15_000, at('/pdv/v1/newEvent', 'CREATED', order.id));
    expect(req.method).toBe('POST');
    expect(req.headers['content-type']).toMatch(/^application\/json/);
    expect(req.headers['x-app-id']).toMatch(UUID);
    expect(req.headers['x-app-merchantid']).toBe(merchantId);
    expect(standardReceiverAccepts(req, odCred.clientSecret)).toBe(true);
    // a receiver holding another key refuses it; so does one given an altered body
    expect(standardReceiverAccepts(req, specCred.clientSecret)).toBe(false);
    expect(standardReceiverAccepts(req, `${odCred.clientSecret}x`)).toBe(false);
    expect(
      standardReceiverAccepts(
        { ...req, rawBody: req.rawBody.replace('CREATED', 'CANCELLED') },
        odCred.clientSecret,
      ),
    ).toBe(false);
    // the body is the standard's Event (official YAML), with none of SPEC's headers
    const body = JSON.parse(req.rawBody);
    expect(od.event(body)).toEqual([]);
    expect(body).toMatchObject({ eventType: 'CREATED', orderId: order.id });
    expect(req.headers['webhook-signature']).toBeUndefined();
    expect(req.headers['x-service-signature']).toBeUndefined();
    // the attempt log names the URL actually called (recorded once the answer is in: wait for it)
    let attempt: any;
    for (let i = 0; !attempt && i < 200; i++) {
      const a = await admin('GET', `/admin/v1/credentials/${odCred.clientId}/webhook-attempts`);
      attempt = a.json.items.find((x: any) => x.eventId === body.eventId);
      if (!attempt) await new Promise((r) => setTimeout(r, 50));
    }
    expect(attempt).toMatchObject({ url: `${rx.url}/pdv/v1/newEvent`, statusCode: 204 });
  });

  it('a SPEC credential of the same store keeps its webhook exactly (Standard Webhooks, SPEC envelope)', async () => {
    const order = await createOrder(stack, merchantId);
    const [req] = await rx.waitFor(1, 15_000, at('/spec', 'CREATED', order.id));
    const ev = new Webhook(specCred.webhookSecret).verify(req.rawBody, req.headers) as Record<
      string,
      unknown
    >;
    expect(ev).toMatchObject({ eventType: 'CREATED', orderId: order.id });
    expect(req.headers['x-service-merchant-id']).toBe(merchantId);
    expect(req.headers['x-app-signature']).toBeUndefined();
  });

  it('events the standard has no type for are not pushed to OPEN_DELIVERY (SKIPPED not_in_standard), SPEC gets them', async () => {
    const order = await createOrder(stack, merchantId);
    const token = async (c: { clientId: string; clientSecret: string }) =>
      ((await (await kit.token(c.clientId, c.clientSecret)).json()) as { access_token: string }).access_token;
    const bearer = { authorization: `Bearer ${await token(specCred)}` };
    for (const action of ['confirm', 'startPreparation']) {
      const r = await stack.api(`/v1/orders/${order.id}/${action}`, { method: 'POST', headers: bearer });
      expect(r.status).toBe(202);
    }
    await rx.waitFor(1, 15_000, at('/spec', 'PREPARING', order.id));
    const [confirmed] = await rx.waitFor(1, 15_000, at('/pdv/v1/newEvent', 'CONFIRMED', order.id));
    expect(standardReceiverAccepts(confirmed, odCred.clientSecret)).toBe(true);
    expect(od.event(JSON.parse(confirmed.rawBody))).toEqual([]);
    let skipped: any;
    for (let i = 0; !skipped && i < 200; i++) {
      const d = await admin('GET', `/admin/v1/credentials/${odCred.clientId}/webhook-deliveries?limit=50`);
      skipped = d.json.items.find((x: any) => x.eventType === 'PREPARING');
      if (!skipped) await new Promise((r) => setTimeout(r, 50));
    }
    expect(skipped).toMatchObject({ status: 'SKIPPED', skipReason: 'not_in_standard' });
    expect(rx.requests.some(at('/pdv/v1/newEvent', 'PREPARING', order.id))).toBe(false);
  });
});
