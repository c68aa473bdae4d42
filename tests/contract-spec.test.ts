import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { type ContractValidator, contractValidator } from '@od/opendelivery/contract';
import {
  type BearerInit,
  createCredential,
  createMerchant,
  createOrder,
  expectContract,
  recordingApi,
  startStack,
  type TestStack,
} from '@od/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The whole integration cycle of a SPEC credential (token, merchant, menu, polling, orders, every
// lifecycle action, acknowledgment, and the error cases of each), every request and response
// checked against the published docs/openapi.json by an OpenAPI validator (openapi-backend + Ajv;
// libs/opendelivery/src/contract.ts). Zero violations, or the build fails.

const DOC = path.resolve(import.meta.dirname, '../docs/openapi.json');
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
const JSON_CT = { 'content-type': 'application/json' };

describe('contract: a SPEC integration cycle follows docs/openapi.json', () => {
  let stack: TestStack;
  let doc: ContractValidator;
  let rec: ReturnType<typeof recordingApi>;
  let merchantId: string;
  let menu: Awaited<ReturnType<typeof createMerchant>>['menu'];
  let cred: { clientId: string; clientSecret: string };
  let readOnly: { clientId: string; clientSecret: string };
  let token: string;

  const credential = (scopes: string[]) => createCredential(stack, merchantId, scopes, 'SPEC');
  const tokenFor = async (c: { clientId: string; clientSecret: string }) => {
    const r = await rec.api('/oauth/token', {
      method: 'POST',
      headers: FORM,
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: c.clientId,
        client_secret: c.clientSecret,
      }).toString(),
    });
    expect(r.status).toBe(200);
    return ((await r.json()) as { access_token: string }).access_token;
  };
  const call = (method: string, p: string, init: BearerInit = {}, t = token) => rec.call(t, method, p, init);
  const action = async (orderId: string, name: string, init: Parameters<typeof call>[2] = {}) =>
    (await call('POST', `/v1/orders/${orderId}/${name}`, init)).status;
  const pollUntil = async (n: number) => {
    const deadline = Date.now() + 15_000;
    for (;;) {
      const page = (await (await call('GET', '/v1/events:polling?limit=200')).json()) as {
        eventId: string;
      }[];
      if (page.length >= n || Date.now() > deadline) return page;
      await new Promise((r) => setTimeout(r, 150));
    }
  };

  beforeAll(async () => {
    doc = await contractValidator(DOC);
    stack = await startStack();
    rec = recordingApi(stack);
    ({ merchantId, menu } = await createMerchant(stack));
    cred = await credential(['orders:read', 'orders:write', 'merchant:read', 'catalog:read']);
    readOnly = await credential(['orders:read']);
    token = await tokenFor(cred);
  }, 60_000);
  afterAll(async () => stack?.stop());

  it('runs the whole cycle with zero contract violations', async () => {
    // token: every accepted form, the alias, and its errors
    const form = (o: Record<string, string>) => new URLSearchParams(o).toString();
    const good = {
      grant_type: 'client_credentials',
      client_id: cred.clientId,
      client_secret: cred.clientSecret,
    };
    const post = (p: string, headers: Record<string, string>, body: string) =>
      rec.api(p, { method: 'POST', headers, body });
    expect((await post('/v1/oauth/token', FORM, form(good))).status).toBe(200);
    expect((await post('/oauth/token', JSON_CT, JSON.stringify(good))).status).toBe(200);
    const basic = Buffer.from(`${cred.clientId}:${cred.clientSecret}`).toString('base64');
    expect(
      (
        await post(
          '/oauth/token',
          { ...FORM, authorization: `Basic ${basic}` },
          'grant_type=client_credentials',
        )
      ).status,
    ).toBe(200);
    expect((await post('/oauth/token', FORM, form({ ...good, grant_type: 'password' }))).status).toBe(400);
    expect((await post('/oauth/token', FORM, form({ grant_type: 'client_credentials' }))).status).toBe(400);
    expect((await post('/oauth/token', { 'content-type': 'text/plain' }, 'x')).status).toBe(415);
    expect((await post('/oauth/token', FORM, `${form(good)}&pad=${'x'.repeat(5000)}`)).status).toBe(413);
    const other = await credential(['orders:read']);
    const wrong = form({ ...good, client_id: other.clientId, client_secret: 'wrong' });
    const refusals: number[] = [];
    for (let i = 0; i < 11; i++) refusals.push((await post('/oauth/token', FORM, wrong)).status);
    expect(refusals.slice(0, 10).every((s) => s === 401)).toBe(true);
    expect(refusals[10]).toBe(429);

    // merchant and menu
    expect((await call('GET', `/v1/merchant/${merchantId}`)).status).toBe(200);
    expect((await call('GET', `/v1/merchant/${merchantId}/menus`)).status).toBe(200);
    expect((await call('GET', `/v1/merchant/${randomUUID()}`)).status).toBe(404);
    expect((await call('GET', `/v1/merchant/${randomUUID()}/menus`)).status).toBe(404);

    // orders of every type, one with a menu item and its options
    const delivery = (
      await createOrder(stack, merchantId, {
        type: 'DELIVERY',
        items: [
          {
            itemId: menu.burger,
            quantity: 2,
            options: [{ optionId: menu.bacon }, { optionId: menu.queijo }],
          },
        ],
      })
    ).id as string;
    const takeout = (await createOrder(stack, merchantId, { type: 'TAKEOUT' })).id as string;
    const indoor = (
      await createOrder(stack, merchantId, { type: 'INDOOR', indoor: { mode: 'TAB', tab: '12' } })
    ).id;
    const scheduled = (
      await createOrder(stack, merchantId, {
        type: 'DELIVERY',
        orderTiming: 'SCHEDULED',
        schedule: { scheduledDateTimeStart: new Date(Date.now() + 3_600_000).toISOString() },
        discounts: [{ amount: 1 }],
      })
    ).id as string;

    // polling (both paths), GET order, acknowledgment
    const page = await pollUntil(4);
    expect(page.length).toBeGreaterThanOrEqual(4);
    expect((await call('GET', '/v1/events/:polling?limit=1')).status).toBe(200);
    expect((await call('GET', '/v1/events:polling?limit=0')).status).toBe(400);
    for (const id of [delivery, takeout, indoor, scheduled])
      expect((await call('GET', `/v1/orders/${id}`)).status).toBe(200);
    expect((await call('GET', `/v1/orders/${randomUUID()}`)).status).toBe(404);
    expect((await call('GET', '/v1/orders/not-a-guid')).status).toBe(404);
    const ackBody = JSON.stringify(page.map((e) => ({ id: e.eventId })));
    expect(
      (await call('POST', '/v1/events/acknowledgment', { headers: JSON_CT, body: ackBody })).status,
    ).toBe(202);
    expect(
      (await call('POST', '/v1/events/acknowledgment', { headers: JSON_CT, body: '[{"eventId":"x"}]' }))
        .status,
    ).toBe(400);

    // every lifecycle action, already_applied, backtracking, and their errors
    expect(await action(delivery, 'confirm')).toBe(202);
    expect(await action(delivery, 'confirm')).toBe(202);
    expect(await action(delivery, 'startPreparation')).toBe(202);
    expect(await action(delivery, 'readyForPickup')).toBe(202);
    expect(await action(delivery, 'dispatch', { headers: { 'idempotency-key': 'k-1' } })).toBe(202);
    expect(await action(delivery, 'dispatch', { headers: { 'idempotency-key': 'k-1' } })).toBe(202);
    expect(await action(delivery, 'delivered', { headers: { 'idempotency-key': 'k-1' } })).toBe(409);
    expect(await action(delivery, 'delivered', { headers: { 'idempotency-key': 'k'.repeat(129) } })).toBe(
      400,
    );
    expect(await action(delivery, 'delivered')).toBe(202);
    expect(await action(delivery, 'requestCancellation')).toBe(422);
    expect(await action(takeout, 'confirm')).toBe(202);
    expect(await action(takeout, 'readyForPickup')).toBe(202);
    expect(await action(takeout, 'pickedUp')).toBe(202);
    expect(await action(indoor, 'confirm')).toBe(202);
    expect(await action(indoor, 'dispatch')).toBe(422);
    const reason = (r: string) => ({ headers: JSON_CT, body: JSON.stringify({ reason: r, code: 'X' }) });
    expect(await action(indoor, 'requestCancellation', reason('x'.repeat(501)))).toBe(400);
    expect(await action(indoor, 'requestCancellation', reason('Cliente desistiu'))).toBe(202);
    expect(await action(scheduled, 'requestCancellation')).toBe(202);
    expect(await action(randomUUID(), 'confirm')).toBe(404);
    expect(await action('not-a-guid', 'confirm')).toBe(404);

    // authentication and scopes
    expect((await rec.api(`/v1/orders/${delivery}`)).status).toBe(401);
    expect((await call('GET', `/v1/orders/${delivery}`, {}, 'not.a.token')).status).toBe(401);
    const ro = await tokenFor(readOnly);
    expect((await call('POST', `/v1/orders/${takeout}/confirm`, {}, ro)).status).toBe(403);
    expect((await call('GET', `/v1/merchant/${merchantId}`, {}, ro)).status).toBe(403);
    expect((await stack.admin('POST', `/admin/v1/credentials/${readOnly.clientId}/pause`)).status).toBe(200);
    expect((await call('GET', `/v1/orders/${delivery}`, {}, ro)).status).toBe(401);

    // a dependency out of reach: 503 with Retry-After
    await stack.services.feed?.stop();
    delete stack.services.feed;
    expect((await call('GET', '/v1/events:polling')).status).toBe(503);
    expect((await call('POST', '/v1/events/acknowledgment', { headers: JSON_CT, body: '[]' })).status).toBe(
      503,
    );

    // the verdict: every exchange follows the document, and the cycle reached each of these
    expectContract(doc, rec.exchanges, [
      'getToken 200',
      'getTokenAlias 200',
      'getToken 400',
      'getToken 401',
      'getToken 413',
      'getToken 415',
      'getToken 429',
      'getMerchant 200',
      'getMerchant 403',
      'getMerchant 404',
      'getMenus 200',
      'getOrder 200',
      'getOrder 401',
      'getOrder 404',
      'pollEvents 200',
      'pollEvents 400',
      'pollEvents 503',
      'pollEventsAlias 200',
      'acknowledgeEvents 202',
      'acknowledgeEvents 400',
      'acknowledgeEvents 503',
      'confirm 202',
      'confirm 403',
      'confirm 404',
      'startPreparation 202',
      'readyForPickup 202',
      'dispatch 202',
      'dispatch 422',
      'pickedUp 202',
      'delivered 202',
      'delivered 400',
      'delivered 409',
      'requestCancellation 202',
      'requestCancellation 400',
      'requestCancellation 422',
    ]);
  }, 120_000);
});
