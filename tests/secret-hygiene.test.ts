import { randomUUID } from 'node:crypto';
import { REDACT_PATHS } from '@od/logger';
import {
  createMerchant,
  createOrder,
  type HttpsReceiver,
  requestToken,
  startHttpsReceiver,
  startStack,
  type TestStack,
} from '@od/testing';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * SPEC Authentication 12: secrets never in logs. A whole integration cycle runs with LOG_LEVEL debug
 * (request logging on) through the production logger settings, every line captured in memory; no
 * line may contain a client secret, a webhook secret, an access token, the JWT key or the admin token.
 */
let stack: TestStack;
let receiver: HttpsReceiver;
const lines: string[] = [];

beforeAll(async () => {
  receiver = await startHttpsReceiver();
  const log = pino(
    {
      name: 'test',
      level: 'debug',
      redact: { paths: REDACT_PATHS, censor: '[redacted]' },
      base: { service: 'test' },
    },
    { write: (s: string) => void lines.push(s) },
  );
  stack = await startStack({ env: { LOG_LEVEL: 'debug' }, log });
});
afterAll(async () => {
  await stack?.stop();
  await receiver?.close();
});

describe('secret hygiene', () => {
  it('a full integration cycle at debug level logs no secret and no token', async () => {
    const secrets: Record<string, string> = {
      jwtKey: stack.config.JWT_SECRET,
      adminToken: stack.config.ADMIN_TOKEN,
    };
    const { merchantId } = await createMerchant(stack);
    const c = await stack.admin('POST', `/admin/v1/merchants/${merchantId}/credentials`, {
      name: 'pdv',
      scopes: ['orders:read', 'orders:write', 'merchant:read', 'catalog:read'],
      deliveryMode: 'BOTH',
      webhookUrl: `${receiver.url}/hook`,
    });
    expect(c.status).toBe(201);
    const cred = await c.json();
    secrets.clientSecret = cred.clientSecret;
    secrets.webhookSecret = cred.webhookSecret;
    secrets.webhookSecretKey = String(cred.webhookSecret).replace(/^whsec_/, '');

    // tokens: form, JSON, Basic, and a wrong secret
    const form = (id: string, secret: string) => requestToken(stack, id, secret);
    const t = await form(cred.clientId, cred.clientSecret);
    expect(t.status).toBe(200);
    const token: string = (await t.json()).access_token;
    secrets.accessToken = token;
    secrets.tokenSignature = token.split('.')[2];
    const json = await stack.api('/v1/oauth/token', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        grantType: 'client_credentials',
        clientId: cred.clientId,
        clientSecret: cred.clientSecret,
      }),
    });
    expect(json.status).toBe(200);
    secrets.accessToken2 = (await json.json()).access_token;
    const basic = Buffer.from(`${cred.clientId}:${cred.clientSecret}`).toString('base64');
    secrets.basic = basic;
    const b = await stack.api('/oauth/token', {
      method: 'POST',
      headers: { authorization: `Basic ${basic}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=client_credentials',
    });
    expect(b.status).toBe(200);
    await b.arrayBuffer();
    secrets.wrongSecret = `wrong-${randomUUID()}`;
    expect((await form(cred.clientId, secrets.wrongSecret)).status).toBe(401);

    const auth = { authorization: `Bearer ${token}` };
    expect((await stack.api(`/v1/merchant/${merchantId}`, { headers: auth })).status).toBe(200);
    expect((await stack.api(`/v1/merchant/${merchantId}/menus`, { headers: auth })).status).toBe(200);

    // an order, its event by polling and by webhook, read, ack, actions
    const order = await createOrder(stack, merchantId);
    let events: { eventId: string; orderId: string }[] = [];
    const deadline = Date.now() + 15_000;
    while (Date.now() < deadline) {
      const p = await stack.api('/v1/events:polling', { headers: auth });
      expect(p.status).toBe(200);
      events = await p.json();
      if (events.some((e) => e.orderId === order.id)) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(events.some((e) => e.orderId === order.id)).toBe(true);
    expect((await stack.api(`/v1/orders/${order.id}`, { headers: auth })).status).toBe(200);
    const ack = await stack.api('/v1/events/acknowledgment', {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify(events.map((e) => ({ id: e.eventId }))),
    });
    expect(ack.status).toBe(202);
    const confirm = await stack.api(`/v1/orders/${order.id}/confirm`, {
      method: 'POST',
      headers: { ...auth, 'idempotency-key': randomUUID() },
    });
    expect(confirm.status).toBe(202);
    await receiver.waitFor(1, 20_000);

    // rotation shows a new webhook secret once; pause makes the token invalid_token
    const rot = await stack.admin('POST', `/admin/v1/credentials/${cred.clientId}/webhook-secret`);
    expect(rot.status).toBe(200);
    secrets.rotated = (await rot.json()).webhookSecret;
    const cancel = await stack.api(`/v1/orders/${order.id}/requestCancellation`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ reason: 'cliente desistiu' }),
    });
    expect(cancel.status).toBe(202);
    await receiver.waitFor(2, 20_000);
    expect((await stack.admin('POST', `/admin/v1/credentials/${cred.clientId}/pause`)).status).toBeLessThan(
      300,
    );
    const paused = await stack.api('/v1/events:polling', { headers: auth });
    expect(paused.status).toBe(401);
    expect((await form(cred.clientId, cred.clientSecret)).status).toBe(401);
    await stack.api(`/v1/orders/${order.id}`, { headers: { authorization: 'Bearer garbage.token.here' } });

    // the logs exist (request logging at debug) and contain nothing secret
    await new Promise((r) => setTimeout(r, 200));
    expect(lines.length).toBeGreaterThan(30);
    expect(lines.some((l) => l.includes('/oauth/token'))).toBe(true);
    for (const [name, value] of Object.entries(secrets)) {
      expect(value, name).toEqual(expect.any(String));
      expect(value.length, name).toBeGreaterThanOrEqual(16);
      const hits = lines.filter((l) => l.includes(value));
      expect(
        hits.map((h) => h.slice(0, 300)),
        `${name} appears in the logs`,
      ).toEqual([]);
    }
  });

  it('the Open Delivery push and merchant read log neither the client secret nor the api key', async () => {
    const { merchantId } = await createMerchant(stack);
    const c = await stack.admin('POST', `/admin/v1/merchants/${merchantId}/credentials`, {
      name: 'pdv od',
      scopes: ['orders:read', 'orders:write', 'merchant:read', 'catalog:read', 'merchant:write'],
      deliveryMode: 'WEBHOOK',
      webhookUrl: `${receiver.url}/od`,
      apiProfile: 'OPEN_DELIVERY',
    });
    expect(c.status).toBe(201);
    const cred = await c.json();
    const apiKey = `api-key-${randomUUID()}`;
    const before = lines.length;
    const t = await requestToken(stack, cred.clientId, cred.clientSecret);
    const auth = {
      authorization: `Bearer ${(await t.json()).access_token}`,
      'content-type': 'application/json',
    };
    const onboard = await stack.api(`/v1/merchantOnboarding?merchantId=${merchantId}`, {
      method: 'PUT',
      headers: auth,
      body: JSON.stringify({ getMerchantURL: { baseURL: `${receiver.url}/od/merchant`, apiKey } }),
    });
    expect(onboard.status).toBe(201);
    // the receiver answers an empty 200: not a document, a 400; the key was sent all the same
    expect((await stack.api('/v1/menuUpdated', { method: 'POST', headers: auth })).status).toBe(400);
    expect(receiver.requests.some((r) => r.headers['x-api-key'] === apiKey)).toBe(true);
    const order = await createOrder(stack, merchantId);
    await receiver.waitFor(1, 20_000, (r) => r.path === '/od/v1/newEvent' && r.rawBody.includes(order.id));
    await new Promise((r) => setTimeout(r, 200));
    expect(lines.length).toBeGreaterThan(before + 5);
    for (const [name, value] of Object.entries({ clientSecret: cred.clientSecret as string, apiKey })) {
      const hits = lines.filter((l) => l.includes(value));
      expect(
        hits.map((h) => h.slice(0, 300)),
        `${name} appears in the logs`,
      ).toEqual([]);
    }
  });
});
