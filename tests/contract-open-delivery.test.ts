import { randomUUID } from 'node:crypto';
import { type ContractValidator, contractValidator } from '@od/opendelivery/contract';
import { OD_SPEC_PATH } from '@od/opendelivery/validator';
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

// The whole integration cycle of an OPEN_DELIVERY credential, as a client written for the standard
// runs it (token, polling with its filters, orders with options, acknowledgment, every action of
// the Order module, the cancellation handshake, validateCode, tracking, merchantStatus,
// merchantOnboarding, error cases), every request and response checked against the official 1.4.0
// document (libs/opendelivery/src/spec, verbatim) with openapi-backend. Zero violations.

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
const JSON_CT = { 'content-type': 'application/json' };
const confirmBody = JSON.stringify({ createdAt: new Date().toISOString(), orderExternalCode: 'PDV-1' });

describe('contract: an OPEN_DELIVERY integration cycle follows the official 1.4.0 document', () => {
  let stack: TestStack;
  let doc: ContractValidator;
  let rec: ReturnType<typeof recordingApi>;
  let merchantId: string;
  let menu: Awaited<ReturnType<typeof createMerchant>>['menu'];
  let token: string;

  const credential = (scopes: string[]) => createCredential(stack, merchantId, scopes, 'OPEN_DELIVERY');
  const tokenFor = async (c: { clientId: string; clientSecret: string }, secret = c.clientSecret) => {
    const body = new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: c.clientId,
      client_secret: secret,
    });
    const r = await rec.api('/oauth/token', { method: 'POST', headers: FORM, body: body.toString() });
    return r.status === 200 ? ((await r.json()) as { access_token: string }).access_token : String(r.status);
  };
  const call = (method: string, p: string, init: BearerInit = {}, t = token) => rec.call(t, method, p, init);
  const post = async (p: string, body?: unknown, t = token) =>
    (
      await call(
        'POST',
        p,
        body === undefined
          ? {}
          : { headers: JSON_CT, body: typeof body === 'string' ? body : JSON.stringify(body) },
        t,
      )
    ).status;
  const pollUntil = async (n: number) => {
    const deadline = Date.now() + 15_000;
    for (;;) {
      const r = await call('GET', '/v1/events:polling');
      const page =
        r.status === 200
          ? ((await r.json()) as { eventId: string; orderId: string; eventType: string }[])
          : [];
      if (page.length >= n || Date.now() > deadline) return page;
      await new Promise((res) => setTimeout(res, 150));
    }
  };
  const adminView = async (id: string) =>
    (await (await stack.admin('GET', `/admin/v1/orders/${id}`)).json()) as { deliveryCode: string };

  beforeAll(async () => {
    doc = await contractValidator(OD_SPEC_PATH);
    stack = await startStack();
    rec = recordingApi(stack);
    ({ merchantId, menu } = await createMerchant(stack));
    token = await tokenFor(
      await credential(['orders:read', 'orders:write', 'merchant:read', 'merchant:write', 'catalog:read']),
    );
  }, 60_000);
  afterAll(async () => stack?.stop());

  it('runs the whole cycle with zero contract violations', async () => {
    const withOptions = {
      type: 'DELIVERY',
      items: [
        { itemId: menu.burger, quantity: 1, options: [{ optionId: menu.bacon }, { optionId: menu.queijo }] },
      ],
    };
    const delivery = (await createOrder(stack, merchantId, withOptions)).id as string;
    const takeout = (await createOrder(stack, merchantId, { type: 'TAKEOUT' })).id as string;
    const indoor = (await createOrder(stack, merchantId, { type: 'INDOOR' })).id as string;
    const toCancel = (await createOrder(stack, merchantId, { type: 'DELIVERY' })).id as string;
    const customerAsks = (await createOrder(stack, merchantId, { type: 'TAKEOUT' })).id as string;
    const platformAsks = (await createOrder(stack, merchantId, { type: 'TAKEOUT' })).id as string;

    // polling, with the standard's filters; GET order; the empty 202 acknowledgment
    const page = await pollUntil(6);
    expect(page.length).toBeGreaterThanOrEqual(6);
    expect((await call('GET', '/v1/events:polling?eventType=CREATED&eventType=CONFIRMED')).status).toBe(200);
    expect(
      (await call('GET', '/v1/events:polling', { headers: { 'x-polling-merchants': merchantId } })).status,
    ).toBe(200);
    expect((await call('GET', '/v1/events:polling?eventType=NOT_A_TYPE')).status).toBe(400);
    for (const id of [delivery, takeout, indoor])
      expect((await call('GET', `/v1/orders/${id}`)).status).toBe(200);
    const order = await (await call('GET', `/v1/orders/${delivery}`)).json();
    expect(order.items[0].options).toHaveLength(2);
    expect(order.lastEvent).toBe('CREATED');
    expect((await call('GET', `/v1/orders/${randomUUID()}`)).status).toBe(404);
    const ack = await call('POST', '/v1/events/acknowledgment', {
      headers: JSON_CT,
      // the standard's AckEvents: id, orderId and eventType of each event
      body: JSON.stringify(page.map((e) => ({ id: e.eventId, orderId: e.orderId, eventType: e.eventType }))),
    });
    expect([ack.status, await ack.text()]).toEqual([202, '']);
    expect(await post('/v1/events/acknowledgment', '[{"eventId":1}]')).toBe(400);

    // the Order module's actions
    expect(await post(`/v1/orders/${delivery}/confirm`, confirmBody)).toBe(202);
    expect((await (await call('GET', `/v1/orders/${delivery}`)).json()).lastEvent).toBe('CONFIRMED');
    expect(await post(`/v1/orders/${delivery}/readyForPickup`)).toBe(202);
    expect(await post(`/v1/orders/${delivery}/dispatch`)).toBe(202);
    const tracking = {
      deliveryTrackingInfo: {
        event: { type: 'DELIVERY_ONGOING', datetime: new Date().toISOString(), message: 'A caminho' },
        deliveryPerson: { id: 'mot-1', name: 'Ana' },
        geoLocalization: { latitude: -23.5, longitude: -46.6 },
      },
    };
    expect(await post(`/v1/orders/${delivery}/tracking`, tracking)).toBe(202);
    // a body the op's schema refuses, or no JSON at all: 400, nothing recorded
    expect(await post(`/v1/orders/${delivery}/tracking`, { deliveryTrackingInfo: 1 })).toBe(400);
    expect(await post(`/v1/orders/${delivery}/tracking`, 'not json')).toBe(400);
    const { deliveryCode } = await adminView(delivery);
    expect(await post(`/v1/orders/${delivery}/validateCode?deliveryCode=${deliveryCode}`)).toBe(200);
    expect(
      await post(
        `/v1/orders/${delivery}/validateCode?deliveryCode=${deliveryCode === '0000' ? '1111' : '0000'}`,
      ),
    ).toBe(400);
    expect(await post(`/v1/orders/${delivery}/delivered`)).toBe(202);
    expect(await post(`/v1/orders/${takeout}/confirm`, confirmBody)).toBe(202);
    expect(await post(`/v1/orders/${takeout}/readyForPickup`)).toBe(202);
    expect(await post(`/v1/orders/${takeout}/tracking`, tracking)).toBe(422);
    expect(await post(`/v1/orders/${indoor}/confirm`, confirmBody)).toBe(202);
    expect(await post(`/v1/orders/${indoor}/dispatch`)).toBe(422);

    // the cancellation handshake, both directions
    const request = { reason: 'Sem entregador', code: 'RESTAURANT_WITHOUT_DELIVERY_PERSON', mode: 'MANUAL' };
    expect(await post(`/v1/orders/${toCancel}/requestCancellation`, request)).toBe(202);
    expect(await post(`/v1/orders/${toCancel}/requestCancellation`, { reason: 'x' })).toBe(400);
    expect(
      (await stack.admin('POST', `/admin/v1/orders/${customerAsks}/cancellation-request`, { by: 'CUSTOMER' }))
        .status,
    ).toBe(202);
    expect(
      (await stack.admin('POST', `/admin/v1/orders/${platformAsks}/cancellation-request`, { by: 'PLATFORM' }))
        .status,
    ).toBe(202);
    expect(await post(`/v1/orders/${customerAsks}/acceptCancellation`)).toBe(204);
    expect(
      await post(`/v1/orders/${platformAsks}/denyCancellation`, {
        reason: 'Já saiu',
        code: 'DISH_ALREADY_DONE',
      }),
    ).toBe(204);
    expect(
      await post(`/v1/orders/${platformAsks}/denyCancellation`, {
        reason: 'Já saiu',
        code: 'DISH_ALREADY_DONE',
      }),
    ).toBe(422);
    const answered = await pollUntil(4);
    expect(answered.length).toBeGreaterThanOrEqual(4);

    // the Merchant module as the ordering application serves it
    expect((await call('GET', `/v1/merchantStatus?merchantId=${merchantId}`)).status).toBe(404);
    const onboarding = { getMerchantURL: { baseURL: 'https://pdv.example.com/od' } };
    const put = await call('PUT', `/v1/merchantOnboarding?merchantId=${merchantId}`, {
      headers: JSON_CT,
      body: JSON.stringify(onboarding),
    });
    expect(put.status, await put.clone().text()).toBe(201);

    // authentication, scopes, a dependency out of reach
    // (a refused token request is RFC 6749's `{ error: invalid_client }` for every caller: who asks
    // is not known before the secret is checked, and naming the profile would reveal the credential
    // exists; docs/open-delivery.md)
    expect((await rec.api(`/v1/orders/${delivery}`)).status).toBe(401);
    const readOnly = await tokenFor(await credential(['orders:read']));
    expect(await post(`/v1/orders/${takeout}/confirm`, confirmBody, readOnly)).toBe(403);
    await stack.services.orders?.stop();
    delete stack.services.orders;
    expect((await call('GET', `/v1/orders/${delivery}`)).status).toBe(503);

    // the verdict: every exchange follows the document, and the cycle reached each of these
    expectContract(doc, rec.exchanges, [
      'getToken 200',
      'pollingEvents 200',
      'pollingEvents 400',
      'pollingAcknowledgment 202',
      'pollingAcknowledgment 400',
      'ordersDetails 200',
      'ordersDetails 401',
      'ordersDetails 404',
      'ordersDetails 503',
      'confirmOrder 202',
      'confirmOrder 403',
      'orderReady 202',
      'dispatchOrder 202',
      'dispatchOrder 422',
      'orderDelivered 202',
      'requestCancellation 202',
      'requestCancellation 400',
      'cancellationAccepted 204',
      'cancellationDenied 204',
      'cancellationDenied 422',
      'orderValidateDelivery 200',
      'orderValidateDelivery 400',
      'orderTracking 202',
      'orderTracking 422',
      'getMerchantStatus 404',
      'putMerchantOnboarding 201',
    ]);
  }, 120_000);
});
