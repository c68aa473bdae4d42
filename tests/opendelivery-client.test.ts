import { randomUUID } from 'node:crypto';
import { connect } from '@nats-io/transport-node';
import {
  type EventEnvelope,
  HANDSHAKE_EVENT_TYPES,
  type HandshakeStep,
  ORDER_OPS,
  type Principal,
} from '@od/contracts';
import { openDeliveryClient } from '@od/opendelivery/client';
import { type OdValidator, odValidator } from '@od/opendelivery/validator';
import { requestToken, poll as specPoll, startStack, type TestStack, testRpc } from '@od/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// A point of sale written for the standard: a client generated from the official Open Delivery
// 1.4.0 document (openapi-typescript types + openapi-fetch) runs the integration cycle against the
// platform with an OPEN_DELIVERY credential, unchanged. Every answer is validated against the
// document too.
type OdEventType =
  | 'CREATED'
  | 'CONFIRMED'
  | 'DISPATCHED'
  | 'READY_FOR_PICKUP'
  | 'CONCLUDED'
  | 'CANCELLED'
  | 'DELIVERED'
  | (typeof HANDSHAKE_EVENT_TYPES)[number];
type Creds = { clientId: string; clientSecret: string };
/** the standard's OrderConfirmed body (createdAt and orderExternalCode required) */
const confirmBody = (id = 'x') => ({
  createdAt: new Date().toISOString(),
  orderExternalCode: `PDV-${id.slice(0, 8)}`,
});

describe('a client generated from the official 1.4.0 document runs the cycle unchanged', () => {
  let stack: TestStack;
  let od: OdValidator;
  let merchantId: string;
  let creds: Creds;
  /** a SPEC credential of the same store, created before any order: the regression witness */
  let spec: Creds;

  const credential = async (
    apiProfile: 'SPEC' | 'OPEN_DELIVERY',
    scopes = ['orders:read', 'orders:write'],
  ) => {
    const c = await stack.admin('POST', `/admin/v1/merchants/${merchantId}/credentials`, {
      name: `pdv ${apiProfile}`,
      scopes,
      deliveryMode: 'POLLING',
      apiProfile,
    });
    expect(c.status).toBe(201);
    return (await c.json()) as Creds;
  };
  const tokenOf = async (c: Creds) =>
    ((await (await requestToken(stack, c.clientId, c.clientSecret)).json()) as { access_token: string })
      .access_token;
  /** the standard client of the main OPEN_DELIVERY credential */
  const odApi = async () => openDeliveryClient(stack.gateway.publicUrl, await tokenOf(creds));
  const newOrder = async (type = 'DELIVERY') => {
    const r = await stack.admin('POST', `/admin/v1/merchants/${merchantId}/orders`, { type });
    return ((await r.json()) as { id: string }).id;
  };
  const adminView = async (id: string) =>
    (await (await stack.admin('GET', `/admin/v1/orders/${id}`)).json()) as {
      situation: string;
      deliveryCode: string;
      cancellationRequest: { party: string; reason: string; code: string } | null;
      history: { trigger: string; detail: unknown }[];
    };
  /**
   * Polls (filtered) until `want(events)` holds, every answer validated against the document,
   * every event against its schema; acknowledges what it got.
   */
  const pollUntil = async (
    api: ReturnType<typeof openDeliveryClient>,
    eventType: OdEventType[],
    want: (events: { eventType: string; orderId: string; metadata?: unknown }[]) => boolean,
  ) => {
    const seen: { eventType: string; orderId: string; metadata?: unknown }[] = [];
    const deadline = Date.now() + 15_000;
    while (!want(seen) && Date.now() < deadline) {
      const r = await api.GET('/v1/events:polling', { params: { query: { eventType } } });
      expect(r.response.status).toBe(200);
      expect(od.response('pollingEvents', 200, r.data)).toEqual([]);
      const events = r.data ?? [];
      for (const e of events) expect(od.event(e), e.eventType).toEqual([]);
      if (events.length) {
        const ack = await api.POST('/v1/events/acknowledgment', {
          body: events.map((e) => ({ id: e.eventId, orderId: e.orderId, eventType: e.eventType })),
        });
        expect(ack.response.status).toBe(202);
        seen.push(...(events as typeof seen));
      } else await new Promise((res) => setTimeout(res, 100));
    }
    expect(want(seen), JSON.stringify(seen)).toBe(true);
    return seen;
  };
  const ofOrder = (events: { eventType: string; orderId: string }[], id: string) =>
    events.filter((e) => e.orderId === id).map((e) => e.eventType);

  beforeAll(async () => {
    od = await odValidator();
    stack = await startStack({ env: { RATE_LIMIT_ENABLED: 'false' } });
    const m = await stack.admin('POST', '/admin/v1/merchants', { name: 'Lanchonete Padrão' });
    merchantId = ((await m.json()) as { id: string }).id;
    const c = await stack.admin('POST', `/admin/v1/merchants/${merchantId}/credentials`, {
      name: 'pdv padrão',
      scopes: ['orders:read', 'orders:write', 'merchant:read', 'catalog:read'],
      deliveryMode: 'POLLING',
      apiProfile: 'OPEN_DELIVERY',
    });
    creds = (await c.json()) as typeof creds;
    spec = await credential('SPEC');
  });
  afterAll(async () => stack?.stop());

  it('token, poll with a filter, get order, every action, acknowledgment', async () => {
    const anon = openDeliveryClient(stack.gateway.publicUrl);
    const tokenRes = await anon.POST('/oauth/token', {
      body: {
        grant_type: 'client_credentials',
        client_id: creds.clientId,
        client_secret: creds.clientSecret,
      },
      bodySerializer: (b) => new URLSearchParams(b as Record<string, string>).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(tokenRes.response.status).toBe(200);
    expect(od.response('getToken', 200, tokenRes.data)).toEqual([]);
    const api = openDeliveryClient(stack.gateway.publicUrl, tokenRes.data?.access_token);

    const orderIds: string[] = [];
    for (const type of ['DELIVERY', 'TAKEOUT', 'DELIVERY']) {
      const r = await stack.admin('POST', `/admin/v1/merchants/${merchantId}/orders`, { type });
      orderIds.push(((await r.json()) as { id: string }).id);
    }
    const poll = async (eventType: OdEventType[], n: number) => {
      const deadline = Date.now() + 10_000;
      for (;;) {
        const r = await api.GET('/v1/events:polling', { params: { query: { eventType } } });
        expect(r.response.status).toBe(200);
        expect(od.response('pollingEvents', 200, r.data)).toEqual([]);
        const events = r.data ?? [];
        if (events.length >= n || Date.now() > deadline) {
          const ack = await api.POST('/v1/events/acknowledgment', {
            body: events.map((e) => ({ id: e.eventId, orderId: e.orderId, eventType: e.eventType })),
          });
          expect(ack.response.status).toBe(202);
          return events;
        }
        await new Promise((res) => setTimeout(res, 100));
      }
    };
    const created = await poll(['CREATED'], 3);
    expect(created.map((e) => e.orderId).sort()).toEqual([...orderIds].sort());

    for (const id of orderIds) {
      const o = await api.GET('/v1/orders/{orderId}', { params: { path: { orderId: id } } });
      expect(o.response.status).toBe(200);
      expect(od.response('ordersDetails', 200, o.data)).toEqual([]);
      const confirm = await api.POST('/v1/orders/{orderId}/confirm', {
        params: { path: { orderId: id } },
        body: { createdAt: new Date().toISOString(), orderExternalCode: `PDV-${id.slice(0, 8)}` },
      });
      expect(confirm.response.status).toBe(202);
    }
    const [delivery, takeout, cancelled] = orderIds;
    const step = async (
      path:
        | '/v1/orders/{orderId}/dispatch'
        | '/v1/orders/{orderId}/readyForPickup'
        | '/v1/orders/{orderId}/delivered',
      id: string,
    ) => {
      const r = await api.POST(path, { params: { path: { orderId: id } } });
      expect(r.response.status, path).toBe(202);
    };
    await step('/v1/orders/{orderId}/dispatch', delivery);
    await step('/v1/orders/{orderId}/delivered', delivery);
    await step('/v1/orders/{orderId}/readyForPickup', takeout);
    await step('/v1/orders/{orderId}/delivered', takeout);
    const cancel = await api.POST('/v1/orders/{orderId}/requestCancellation', {
      params: { path: { orderId: cancelled } },
      body: { reason: 'Cliente desistiu', code: 'SYSTEMIC_ISSUES', mode: 'MANUAL' },
    });
    expect(cancel.response.status).toBe(202);

    const later = await poll(
      ['CONFIRMED', 'DISPATCHED', 'READY_FOR_PICKUP', 'CONCLUDED', 'CANCELLATION_REQUESTED'],
      8,
    );
    const byOrder = (id: string) => later.filter((e) => e.orderId === id).map((e) => e.eventType);
    expect(byOrder(delivery)).toEqual(['CONFIRMED', 'DISPATCHED', 'CONCLUDED']);
    expect(byOrder(takeout)).toEqual(['CONFIRMED', 'READY_FOR_PICKUP', 'CONCLUDED']);
    // the standard's request: CANCELLATION_REQUESTED, then the ordering application decides
    expect(byOrder(cancelled)).toEqual(['CONFIRMED', 'CANCELLATION_REQUESTED']);
    expect(
      (await stack.admin('POST', `/admin/v1/orders/${cancelled}/cancellation-request/accept`, {})).status,
    ).toBe(202);
    expect((await poll(['CANCELLED'], 1)).map((e) => [e.orderId, e.eventType])).toEqual([
      [cancelled, 'CANCELLED'],
    ]);
    // acknowledged: nothing pending any more
    const empty = await api.GET('/v1/events:polling');
    expect(empty.data).toEqual([]);
  });
  it('the point of sale asks to cancel: the platform accepts one request and denies the other', async () => {
    const api = await odApi();
    const [a, b] = [await newOrder(), await newOrder()];
    for (const id of [a, b]) {
      const c = await api.POST('/v1/orders/{orderId}/confirm', {
        params: { path: { orderId: id } },
        body: confirmBody(),
      });
      expect(c.response.status).toBe(202);
    }
    for (const id of [a, b]) {
      const r = await api.POST('/v1/orders/{orderId}/requestCancellation', {
        params: { path: { orderId: id } },
        body: { reason: 'Sem entregador', code: 'RESTAURANT_WITHOUT_DELIVERY_PERSON', mode: 'MANUAL' },
      });
      expect(r.response.status).toBe(202);
      expect(await r.response.clone().text()).toBe('');
      // a request is not a cancellation: the order stays where it was until the platform decides
      const view = await adminView(id);
      expect(view.situation).toBe('ACCEPTED');
      expect(view.cancellationRequest).toMatchObject({
        party: 'MERCHANT',
        code: 'RESTAURANT_WITHOUT_DELIVERY_PERSON',
      });
    }
    // asking again while the request is open changes nothing (202, no second event)
    const again = await api.POST('/v1/orders/{orderId}/requestCancellation', {
      params: { path: { orderId: a } },
      body: { reason: 'Sem entregador', code: 'RESTAURANT_WITHOUT_DELIVERY_PERSON', mode: 'AUTO' },
    });
    expect(again.response.status).toBe(202);
    const requested = await pollUntil(api, ['CANCELLATION_REQUESTED'], (e) => e.length >= 2);
    expect(requested.map((e) => e.orderId).sort()).toEqual([a, b].sort());
    expect(requested[0].metadata).toMatchObject({
      reason: 'Sem entregador',
      code: 'RESTAURANT_WITHOUT_DELIVERY_PERSON',
    });

    // the ordering application (the platform, admin API) decides
    expect((await stack.admin('POST', `/admin/v1/orders/${a}/cancellation-request/accept`, {})).status).toBe(
      202,
    );
    const deny = await stack.admin('POST', `/admin/v1/orders/${b}/cancellation-request/deny`, {
      reason: 'Pedido já saiu',
    });
    expect(deny.status).toBe(202);
    const decided = await pollUntil(api, ['CANCELLED', 'CANCELLATION_REQUEST_DENIED'], (e) => e.length >= 2);
    expect(ofOrder(decided, a)).toEqual(['CANCELLED']);
    expect(ofOrder(decided, b)).toEqual(['CANCELLATION_REQUEST_DENIED']);
    expect(decided.find((e) => e.orderId === b)?.metadata).toMatchObject({
      reason: 'Pedido já saiu',
      code: 'RESTAURANT_WITHOUT_DELIVERY_PERSON',
    });
    // CANCELLED carries one of SPEC's two codes: SPEC credentials receive it too
    expect(decided.find((e) => e.orderId === a)?.metadata).toMatchObject({
      reason: 'Sem entregador',
      code: 'OTHER_CANCELLATION_REASON',
    });
    expect((await adminView(a)).situation).toBe('CANCELLED');
    const bView = await adminView(b);
    expect([bView.situation, bView.cancellationRequest]).toEqual(['ACCEPTED', null]);
    // no request open any more: a second decision is 422
    const late = await stack.admin('POST', `/admin/v1/orders/${b}/cancellation-request/accept`, {});
    expect(late.status).toBe(422);

    // the standard's body is required: a request without `mode` is 400 in the standard's form
    const bad = await fetch(`${stack.gateway.publicUrl}/v1/orders/${b}/requestCancellation`, {
      method: 'POST',
      headers: { authorization: `Bearer ${await tokenOf(creds)}`, 'content-type': 'application/json' },
      body: JSON.stringify({ reason: 'x', code: 'SYSTEMIC_ISSUES' }),
    });
    expect(bad.status).toBe(400);
    expect(bad.headers.get('content-type')).toContain('application/problem+json');
    expect(od.response('requestCancellation', 400, await bad.json())).toEqual([]);
    // a cancelled order cannot be asked for again... it is already cancelled (202, nothing new)
    const onCancelled = await api.POST('/v1/orders/{orderId}/requestCancellation', {
      params: { path: { orderId: a } },
      body: { reason: 'x', code: 'SYSTEMIC_ISSUES', mode: 'AUTO' },
    });
    expect(onCancelled.response.status).toBe(202);
  });

  it('the customer (or the platform) asks to cancel: the point of sale accepts one and denies the other', async () => {
    const api = await odApi();
    const [c, d] = [await newOrder(), await newOrder('TAKEOUT')];
    const ask = await stack.admin('POST', `/admin/v1/orders/${c}/cancellation-request`, {
      by: 'CUSTOMER',
      reason: 'Demorou demais',
    });
    expect(ask.status).toBe(202);
    expect(
      (await stack.admin('POST', `/admin/v1/orders/${d}/cancellation-request`, { by: 'PLATFORM' })).status,
    ).toBe(202);
    const asked = await pollUntil(api, ['ORDER_CANCELLATION_REQUEST'], (e) => e.length >= 2);
    expect(asked.find((e) => e.orderId === c)?.metadata).toMatchObject({
      reason: 'Demorou demais',
      code: 'CONSUMER_CANCELLATION_REQUESTED',
    });
    expect(asked.find((e) => e.orderId === d)?.metadata).toMatchObject({ code: 'OTHER_CANCELLATION_REASON' });

    const accept = await api.POST('/v1/orders/{orderId}/acceptCancellation', {
      params: { path: { orderId: c } },
    });
    expect(accept.response.status).toBe(204);
    expect(await accept.response.clone().text()).toBe('');
    expect(od.response('cancellationAccepted', 204, null)).toEqual([]);
    const denyBody = { reason: 'Já está pronto', code: 'DISH_ALREADY_DONE' } as const;
    const deny = await api.POST('/v1/orders/{orderId}/denyCancellation', {
      params: { path: { orderId: d } },
      body: denyBody,
    });
    expect(deny.response.status).toBe(204);
    const answered = await pollUntil(api, ['CANCELLED', 'CANCELLED_DENIED'], (e) => e.length >= 2);
    expect(ofOrder(answered, c)).toEqual(['CANCELLED']);
    expect(ofOrder(answered, d)).toEqual(['CANCELLED_DENIED']);
    expect(answered.find((e) => e.orderId === c)?.metadata).toMatchObject({
      code: 'CONSUMER_CANCELLATION_REQUESTED',
    });
    expect(answered.find((e) => e.orderId === d)?.metadata).toMatchObject({ reason: 'Já está pronto' });
    expect((await adminView(c)).situation).toBe('CANCELLED');
    const dView = await adminView(d);
    expect([dView.situation, dView.cancellationRequest]).toEqual(['PENDING', null]);
    expect(dView.history.at(-1)).toMatchObject({ trigger: 'merchantDeniesCancellation' });

    // nothing to answer any more: 422 in the standard's form; a bad denial body: 400
    const again = await api.POST('/v1/orders/{orderId}/denyCancellation', {
      params: { path: { orderId: d } },
      body: denyBody,
    });
    expect(again.response.status).toBe(422);
    expect(again.response.headers.get('content-type')).toContain('application/problem+json');
    expect(od.response('cancellationDenied', 422, again.error)).toEqual([]);
    const badCode = await api.POST('/v1/orders/{orderId}/denyCancellation', {
      params: { path: { orderId: d } },
      body: { reason: 'x', code: 'NOT_A_CODE' as 'DISH_ALREADY_DONE' },
    });
    expect(badCode.response.status).toBe(400);
    expect(od.response('cancellationDenied', 400, badCode.error)).toEqual([]);
  });

  it("the previous release's handshake op (step in params) is still served, for its gateways during a rollout", async () => {
    const nc = await connect({ servers: stack.config.NATS_URL });
    try {
      const rpc = testRpc(nc, stack.config, 'gateway');
      const principal = {
        kind: 'credential',
        clientId: creds.clientId,
        merchantId,
        scopes: ['orders:write'],
      };
      const id = await newOrder();
      const step = (s: HandshakeStep, body?: unknown) =>
        rpc.call(
          ORDER_OPS.handshake,
          { params: { orderId: id, step: s }, body },
          { traceId: randomUUID(), principal: principal as Principal },
        );
      const bad = await step('requestCancellation', { reason: 'x', code: 'SYSTEMIC_ISSUES' });
      expect(bad.status).toBe(400);
      expect(JSON.parse(new TextDecoder().decode(bad.body)).errors).toHaveProperty('mode');
      const ok = await step('requestCancellation', {
        reason: 'Sem estoque',
        code: 'SYSTEMIC_ISSUES',
        mode: 'AUTO',
      });
      expect(ok.status).toBe(202);
      expect((await adminView(id)).history.at(-1)).toMatchObject({ trigger: 'merchantRequestsCancellation' });
    } finally {
      await nc.close();
    }
  });

  it('validateCode and tracking', async () => {
    const api = await odApi();
    const id = await newOrder();
    await api.POST('/v1/orders/{orderId}/confirm', {
      params: { path: { orderId: id } },
      body: confirmBody(id),
    });
    const { deliveryCode } = await adminView(id);
    expect(deliveryCode).toMatch(/^\d{4}$/);

    const ok = await api.POST('/v1/orders/{orderId}/validateCode', {
      params: { path: { orderId: id }, query: { deliveryCode } },
    });
    expect(ok.response.status).toBe(200);
    expect(ok.data).toEqual({ orderId: id, deliveryCode });
    expect(od.response('orderValidateDelivery', 200, ok.data)).toEqual([]);
    const wrong = await api.POST('/v1/orders/{orderId}/validateCode', {
      params: { path: { orderId: id }, query: { deliveryCode: deliveryCode === '0000' ? '1111' : '0000' } },
    });
    expect(wrong.response.status).toBe(400);
    expect(wrong.error).toMatchObject({ title: 'Código de entrega inválido.', status: 400 });
    expect(od.response('orderValidateDelivery', 400, wrong.error)).toEqual([]);
    const missing = await fetch(`${stack.gateway.publicUrl}/v1/orders/${id}/validateCode`, {
      method: 'POST',
      headers: { authorization: `Bearer ${await tokenOf(creds)}` },
    });
    expect(missing.status).toBe(400);
    expect(od.response('orderValidateDelivery', 400, await missing.json())).toEqual([]);

    const update = {
      deliveryTrackingInfo: {
        event: { type: 'DELIVERY_ONGOING', datetime: new Date().toISOString(), message: 'A caminho' },
        deliveryPerson: { id: 'mot-1', name: 'Ana' },
        geoLocalization: { latitude: -23.5, longitude: -46.6 },
      },
    } as const;
    const t = await api.POST('/v1/orders/{orderId}/tracking', {
      params: { path: { orderId: id } },
      body: update,
    });
    expect(t.response.status).toBe(202);
    expect(await t.response.clone().text()).toBe('');
    expect((await adminView(id)).history.at(-1)).toMatchObject({ trigger: 'tracking', detail: update });
    const takeout = await newOrder('TAKEOUT');
    await api.POST('/v1/orders/{orderId}/confirm', {
      params: { path: { orderId: takeout } },
      body: confirmBody(takeout),
    });
    const refused = await api.POST('/v1/orders/{orderId}/tracking', {
      params: { path: { orderId: takeout } },
      body: update,
    });
    expect(refused.response.status).toBe(422);
    expect(od.response('orderTracking', 422, refused.error)).toEqual([]);
    const badBody = await api.POST('/v1/orders/{orderId}/tracking', {
      params: { path: { orderId: id } },
      body: { deliveryTrackingInfo: { event: { type: 'FLYING' } } } as unknown as typeof update,
    });
    expect(badBody.response.status).toBe(400);
    expect(od.response('orderTracking', 400, badBody.error)).toEqual([]);
  });

  it('errors after the token verifies speak the standard; before, nobody is known yet (SPEC 401)', async () => {
    const anon = await fetch(`${stack.gateway.publicUrl}/v1/orders/${randomUUID()}`);
    expect(anon.status).toBe(401);
    expect(await anon.text()).toBe('');
    const readOnly = await credential('OPEN_DELIVERY', ['orders:read']);
    const ro = openDeliveryClient(stack.gateway.publicUrl, await tokenOf(readOnly));
    const forbidden = await ro.POST('/v1/orders/{orderId}/confirm', {
      params: { path: { orderId: randomUUID() } },
      body: confirmBody(),
    });
    expect(forbidden.response.status).toBe(403);
    expect(forbidden.response.headers.get('content-type')).toContain('application/problem+json');
    expect(od.response('confirmOrder', 403, forbidden.error)).toEqual([]);
    expect((await stack.admin('POST', `/admin/v1/credentials/${readOnly.clientId}/pause`)).status).toBe(200);
    const paused = await ro.GET('/v1/orders/{orderId}', { params: { path: { orderId: randomUUID() } } });
    expect(paused.response.status).toBe(401);
    expect(paused.response.headers.get('content-type')).toContain('application/problem+json');
    expect(od.response('ordersDetails', 401, paused.error)).toEqual([]);
  });

  it('SPEC regression: a SPEC credential of the same store never sees the handshake, keeps its rules', async () => {
    const token = await tokenOf(spec);
    // immediate cancellation, SPEC's 202 body, as before
    const e = await newOrder();
    const r = await stack.api(`/v1/orders/${e}/requestCancellation`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(r.status).toBe(202);
    expect(await r.json()).toEqual({ status: 'accepted', situation: 'CANCELLED' });
    // the standard-only routes do not exist for it
    for (const path of [
      'acceptCancellation',
      'denyCancellation',
      'tracking',
      'validateCode?deliveryCode=1',
    ]) {
      const x = await stack.api(`/v1/orders/${e}/${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: '{}',
      });
      expect(x.status, path).toBe(404);
      expect(await x.json()).toMatchObject({ title: 'Not Found', status: 404 });
    }
    // its feed holds every order of the store but no handshake type (recipient rule at store time)
    const all: EventEnvelope[] = [];
    for (;;) {
      const page = await specPoll(stack, token, '?limit=100');
      if (!page.length) break;
      all.push(...page);
      await stack.api('/v1/events/acknowledgment', {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify(page.map((x) => ({ id: x.eventId }))),
      });
    }
    const types = new Set(all.map((x) => x.eventType));
    for (const t of HANDSHAKE_EVENT_TYPES) expect(types.has(t), t).toBe(false);
    // it did see the cancellations the handshake produced (CANCELLED is a SPEC type), with SPEC's codes
    const cancelled = all.filter((x) => x.eventType === 'CANCELLED');
    expect(cancelled.length).toBeGreaterThanOrEqual(3);
    for (const x of cancelled)
      expect(['OTHER_CANCELLATION_REASON', 'CONSUMER_CANCELLATION_REQUESTED']).toContain(x.metadata?.code);
  });
});
