import { openDeliveryClient } from '@od/opendelivery/client';
import { type OdValidator, odValidator } from '@od/opendelivery/validator';
import { startStack, type TestStack } from '@od/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// A point of sale written for the standard: a client generated from the official Open Delivery
// 1.4.0 document (openapi-typescript types + openapi-fetch) runs the integration cycle against the
// platform with an OPEN_DELIVERY credential, unchanged. Every answer is validated against the
// document too.
describe('a client generated from the official 1.4.0 document runs the cycle unchanged', () => {
  let stack: TestStack;
  let od: OdValidator;
  let merchantId: string;
  let creds: { clientId: string; clientSecret: string };

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
    const poll = async (
      eventType: ('CREATED' | 'CONFIRMED' | 'DISPATCHED' | 'READY_FOR_PICKUP' | 'CONCLUDED' | 'CANCELLED')[],
      n: number,
    ) => {
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

    const later = await poll(['CONFIRMED', 'DISPATCHED', 'READY_FOR_PICKUP', 'CONCLUDED', 'CANCELLED'], 9);
    const byOrder = (id: string) => later.filter((e) => e.orderId === id).map((e) => e.eventType);
    expect(byOrder(delivery)).toEqual(['CONFIRMED', 'DISPATCHED', 'CONCLUDED']);
    expect(byOrder(takeout)).toEqual(['CONFIRMED', 'READY_FOR_PICKUP', 'CONCLUDED']);
    expect(byOrder(cancelled)).toEqual(['CONFIRMED', 'CANCELLED']);
    // acknowledged: nothing pending any more
    const empty = await api.GET('/v1/events:polling');
    expect(empty.data).toEqual([]);
  });
});
