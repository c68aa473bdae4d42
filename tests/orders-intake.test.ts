import { randomUUID } from 'node:crypto';
import {
  createMerchant,
  createOrder,
  eventsOf,
  issueTestToken,
  startStack,
  type TestMenu,
  type TestStack,
  waitForStream,
} from '@od/testing';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const brl = (value: number) => ({ value, currency: 'BRL' });

describe('orders: intake through the admin API and the public Order', () => {
  let stack: TestStack;
  let merchantId: string;
  let menu: TestMenu;
  let token: string;
  const get = (id: string, t = token) =>
    stack.api(`/v1/orders/${id}`, { headers: { authorization: `Bearer ${t}` } });

  beforeAll(async () => {
    stack = await startStack({ services: ['catalog', 'orders'] });
    ({ merchantId, menu } = await createMerchant(stack));
    ({ token } = await issueTestToken(stack, { merchantId, scopes: ['orders:read', 'orders:write'] }));
  });
  afterAll(async () => stack?.stop());

  it('{ type: DELIVERY } alone yields a complete sample order, identical through GET', async () => {
    const created = await createOrder(stack, merchantId, { type: 'DELIVERY' });
    expect(created.situation).toBe('PENDING');
    expect(created.channel).toBe('DIGITAL_MENU');
    const res = await get(created.id);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/application\/json/);
    const order = await res.json();
    const { situation: _s, channel: _c, ...publicPart } = created;
    expect(order).toEqual(publicPart);
    expect(Object.keys(order)).toEqual([
      'id',
      'displayId',
      'type',
      'orderTiming',
      'createdAt',
      'preparationStartDateTime',
      'merchant',
      'customer',
      'items',
      'otherFees',
      'discounts',
      'total',
      'payments',
      'delivery',
      'takeout',
      'indoor',
      'schedule',
      'extraInfo',
      'test',
    ]);
    expect(order.id).toMatch(GUID);
    expect(order.type).toBe('DELIVERY');
    expect(order.orderTiming).toBe('INSTANT');
    expect(order.createdAt).toMatch(ISO);
    expect(order.preparationStartDateTime).toBe(order.createdAt);
    expect(order.merchant).toEqual({ id: merchantId, name: 'Cantina do Teste' });
    expect(order.customer).toEqual({
      id: expect.stringMatching(GUID),
      name: expect.any(String),
      phone: { number: expect.any(String), extension: null },
      documentNumber: null,
      email: null,
      ordersCountOnMerchant: null,
    });
    // the first available menu item (X-Burger, 30.00) with no mandatory options
    expect(order.items).toEqual([
      {
        id: menu.burger,
        index: 0,
        name: 'X-Burger',
        externalCode: 'XB',
        unit: 'UN',
        ean: null,
        quantity: 1,
        specialInstructions: null,
        unitPrice: brl(30),
        optionsPrice: brl(0),
        totalPrice: brl(30),
        options: [],
      },
    ]);
    expect(order.otherFees).toEqual([
      { name: 'Taxa de entrega', type: 'DELIVERY', receivedBy: 'MERCHANT', price: brl(5) },
    ]);
    expect(order.discounts).toBeNull();
    expect(order.total).toEqual({
      items: brl(30),
      otherFees: brl(5),
      discount: brl(0),
      orderAmount: brl(35),
    });
    expect(order.payments).toEqual({
      prepaid: 0,
      pending: 35,
      methods: [
        {
          value: 35,
          currency: 'BRL',
          method: 'CREDIT',
          methodInfo: expect.any(String),
          type: 'OFFLINE',
          changeFor: null,
          brand: null,
          transaction: null,
        },
      ],
    });
    expect(order.delivery).toEqual({
      deliveryDateTime: null,
      estimatedDeliveryDateTime: expect.stringMatching(ISO),
      deliveredBy: 'MERCHANT',
      deliveryAddress: {
        country: 'BR',
        state: expect.any(String),
        city: expect.any(String),
        district: expect.any(String),
        street: expect.any(String),
        number: expect.any(String),
        postalCode: expect.any(String),
        complement: null,
        reference: null,
        formattedAddress: expect.any(String),
        coordinates: { latitude: expect.any(Number), longitude: expect.any(Number) },
      },
    });
    expect(order.takeout).toBeNull();
    expect(order.indoor).toBeNull();
    expect(order.schedule).toBeNull();
    expect(order.extraInfo).toBe('[Canal: DIGITAL_MENU] [Origem: Cardápio digital]');
    expect(order.test).toBe(false);

    // CREATED landed in JetStream, caused by the channel: no sourceAppId, no metadata
    const events = await waitForStream(
      stack.config.NATS_URL,
      stack.prefix,
      (e) => eventsOf(e, order.id).length >= 1,
    );
    const [ev] = eventsOf(events, order.id);
    expect(ev.subject).toBe(`${stack.prefix}.events.order.${merchantId}`);
    expect(ev.msgId).toBe(ev.message.envelope.eventId);
    expect(ev.message).toEqual({
      merchantId,
      channel: 'DIGITAL_MENU',
      orderSeq: 1,
      envelope: {
        eventId: expect.stringMatching(GUID),
        eventType: 'CREATED',
        orderId: order.id,
        orderURL: `https://api.test.local/v1/orders/${order.id}`,
        createdAt: order.createdAt,
      },
    });
  });

  it('TAKEOUT, INDOOR and SCHEDULED samples fill their blocks; preparationStartDateTime follows the schedule', async () => {
    const t = await createOrder(stack, merchantId, { type: 'TAKEOUT', channel: 'APP' });
    expect(t.channel).toBe('APP');
    expect(t.delivery).toBeNull();
    expect(t.takeout).toEqual({ mode: 'DEFAULT', takeoutDateTime: expect.stringMatching(ISO) });
    expect(t.otherFees).toEqual([]);
    expect(t.total.orderAmount).toEqual(brl(30));
    const i = await createOrder(stack, merchantId, {
      type: 'INDOOR',
      channel: 'TABLE',
      indoor: { mode: 'TAB', tab: '42' },
    });
    expect(i.indoor).toEqual({
      mode: 'TAB',
      indoorDateTime: expect.stringMatching(ISO),
      place: null,
      tab: '42',
    });
    const start = new Date(Date.now() + 3 * 3600_000).toISOString();
    const s = await createOrder(stack, merchantId, {
      type: 'DELIVERY',
      schedule: { scheduledDateTimeStart: start },
    });
    expect(s.orderTiming).toBe('SCHEDULED');
    expect(s.schedule).toEqual({
      scheduledDateTimeStart: start,
      scheduledDateTimeEnd: new Date(Date.parse(start) + 30 * 60_000).toISOString(),
    });
    expect(s.preparationStartDateTime).toBe(start);
    const s2 = await createOrder(stack, merchantId, { type: 'TAKEOUT', orderTiming: 'SCHEDULED' });
    expect(s2.preparationStartDateTime).toBe(s2.schedule.scheduledDateTimeStart);
    expect(Date.parse(s2.schedule.scheduledDateTimeEnd)).toBeGreaterThan(
      Date.parse(s2.schedule.scheduledDateTimeStart),
    );
  });

  it('an order of a test store has test: true', async () => {
    const testStore = await createMerchant(stack, { test: true, name: 'Loja de teste' });
    const o = await createOrder(stack, testStore.merchantId, { type: 'DELIVERY' });
    expect(o.test).toBe(true);
  });

  it('prices menu items and options from the menu, computes totals and checks payments', async () => {
    const o = await createOrder(stack, merchantId, {
      type: 'DELIVERY',
      items: [
        { itemId: menu.burger, quantity: 2, options: [{ optionId: menu.bacon }, { optionId: menu.queijo }] },
        { itemId: menu.pizza, options: [{ optionId: `${menu.pizza}-variacoes-1` }] },
        { name: 'Refrigerante', externalCode: 'REF', unitPrice: 7.5, quantity: 2 },
      ],
      otherFees: [{ name: 'Entrega', type: 'DELIVERY', price: 8 }],
      discounts: [{ amount: 10, target: 'CART' }],
      payments: {
        methods: [
          { value: 50, method: 'PIX', type: 'ONLINE' },
          { value: 80, method: 'CASH', type: 'OFFLINE', changeFor: 100 },
        ],
      },
      customer: { name: 'Maria', phone: { number: '11988887777' }, email: 'maria@example.com' },
    });
    const burger = o.items[0];
    expect(burger.options).toEqual([
      {
        id: menu.bacon,
        index: 0,
        name: 'Bacon',
        externalCode: 'AD-BAC',
        quantity: 1,
        unit: null,
        unitPrice: brl(5),
        price: brl(5),
        groupName: 'Adicionais',
      },
      {
        id: menu.queijo,
        index: 1,
        name: 'Queijo extra',
        externalCode: 'AD-QJ',
        quantity: 1,
        unit: null,
        unitPrice: brl(3.5),
        price: brl(3.5),
        groupName: 'Adicionais',
      },
    ]);
    expect(burger.optionsPrice).toEqual(brl(8.5));
    expect(burger.totalPrice).toEqual(brl(77));
    expect(o.items[1]).toMatchObject({
      id: menu.pizza,
      unitPrice: brl(0),
      optionsPrice: brl(40),
      totalPrice: brl(40),
      options: [{ id: `${menu.pizza}-variacoes-1`, name: 'Pequena', groupName: 'Tamanho', price: brl(40) }],
    });
    expect(o.items[2].totalPrice).toEqual(brl(15));
    expect(o.total.items).toEqual(brl(132));
    expect(o.total.orderAmount).toEqual(brl(130));
    expect(o.total.otherFees).toEqual(brl(8));
    expect(o.total.discount).toEqual(brl(10));
    expect(o.discounts).toEqual([
      {
        amount: brl(10),
        target: 'CART',
        targetId: null,
        sponsorshipValues: [{ name: 'MERCHANT', amount: brl(10), discountCode: null }],
      },
    ]);
    expect(o.payments.prepaid).toBe(50);
    expect(o.payments.pending).toBe(80);
    expect(o.customer.email).toBe('maria@example.com');
  });

  it('rejects client mistakes with 400 and a clear message, never 500', async () => {
    const post = (body: unknown, m = merchantId) =>
      stack.admin('POST', `/admin/v1/merchants/${m}/orders`, body);
    const mismatch = await post({
      type: 'DELIVERY',
      payments: { methods: [{ value: 1, method: 'CASH', type: 'OFFLINE' }] },
    });
    expect(mismatch.status).toBe(400);
    const body = await mismatch.json();
    expect(body.error).toBe('validation_error');
    expect(body.message).toMatch(/35/);
    const unavailable = await post({ type: 'DELIVERY', items: [{ itemId: menu.unavailable }] });
    expect(unavailable.status).toBe(400);
    expect((await unavailable.json()).message).toMatch(/indisponível/);
    const optUnavailable = await post({
      type: 'DELIVERY',
      items: [{ itemId: menu.burger, options: [{ optionId: menu.esgotado }] }],
    });
    expect(optUnavailable.status).toBe(400);
    const tooMany = await post({
      type: 'DELIVERY',
      items: [
        { itemId: menu.burger, options: [{ optionId: menu.bacon }, { optionId: menu.queijo, quantity: 2 }] },
      ],
    });
    expect(tooMany.status).toBe(400);
    const noSize = await post({ type: 'DELIVERY', items: [{ itemId: menu.pizza }] });
    expect(noSize.status).toBe(400);
    expect((await noSize.json()).message).toMatch(/Tamanho/);
    const over = await post({
      type: 'DELIVERY',
      items: [{ itemId: menu.burger, options: [{ optionId: menu.bacon, quantity: 3 }] }],
    });
    expect(over.status).toBe(400);
    expect((await post({ type: 'DELIVERY', items: [{ itemId: randomUUID() }] })).status).toBe(400);
    expect((await post({ type: 'BOAT' })).status).toBe(400);
    expect((await post({})).status).toBe(400);
    expect((await post({ type: 'TAKEOUT', delivery: { deliveredBy: 'MERCHANT' } })).status).toBe(400);
    expect((await post({ type: 'DELIVERY', discounts: [{ amount: 1000 }] })).status).toBe(400);
    const unknown = await post({ type: 'DELIVERY' }, randomUUID());
    expect(unknown.status).toBe(404);
    expect((await unknown.json()).error).toBe('merchant_not_found');
    expect((await post({ type: 'DELIVERY' }, 'not-a-guid')).status).toBe(404);
  });

  it('random intake bodies never cause a 500 (400 or 201 only)', async () => {
    const value = fc.oneof(
      fc.anything(),
      fc.double(),
      fc.constantFrom(-1, 0, 1e20, 99999999, '', 'x', null, [], {}),
    );
    const body = fc.record(
      {
        type: fc.oneof(fc.constantFrom('DELIVERY', 'TAKEOUT', 'INDOOR'), value),
        orderTiming: fc.oneof(fc.constantFrom('INSTANT', 'SCHEDULED'), value),
        schedule: fc.oneof(
          fc.record({
            scheduledDateTimeStart: fc.oneof(
              fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
              value,
            ),
          }),
          value,
        ),
        channel: fc.oneof(fc.constantFrom('APP', 'TABLE', 'MARKETPLACE'), value),
        paymentPending: fc.oneof(fc.boolean(), value),
        items: fc.oneof(
          fc.array(
            fc.oneof(
              fc.record(
                {
                  itemId: fc.oneof(fc.constant(menu.burger), fc.constant(menu.pizza), value),
                  quantity: value,
                },
                { requiredKeys: ['itemId'] },
              ),
              fc.record(
                { name: fc.string(), unitPrice: value, quantity: value, options: value },
                { requiredKeys: ['name', 'unitPrice'] },
              ),
            ),
            { maxLength: 3 },
          ),
          value,
        ),
        otherFees: fc.oneof(
          fc.array(fc.record({ name: fc.string(), type: fc.constantFrom('DELIVERY', 'TIP'), price: value })),
          value,
        ),
        discounts: fc.oneof(fc.array(fc.record({ amount: value, target: value })), value),
        payments: fc.oneof(
          fc.record({
            methods: fc.array(
              fc.record({
                value,
                method: fc.constantFrom('CASH', 'PIX'),
                type: fc.constantFrom('OFFLINE', 'ONLINE'),
              }),
            ),
          }),
          value,
        ),
        customer: value,
        delivery: value,
        extraInfo: value,
      },
      { requiredKeys: [] },
    );
    await fc.assert(
      fc.asyncProperty(body, async (b) => {
        const r = await stack.admin('POST', `/admin/v1/merchants/${merchantId}/orders`, b);
        expect([201, 400]).toContain(r.status);
        // bad_request: the gateway's JSON parser refuses bodies such as { "__proto__": ... }
        if (r.status === 400) expect(['validation_error', 'bad_request']).toContain((await r.json()).error);
        else await r.arrayBuffer();
      }),
      { numRuns: 150 },
    );
  }, 120_000);

  it('an order with online payment pending is invisible to integrators until paid', async () => {
    const o = await createOrder(stack, merchantId, { type: 'DELIVERY', paymentPending: true });
    expect(o.situation).toBe('PENDING_PAYMENT');
    expect(o.payments).toMatchObject({ prepaid: 35, pending: 0 });
    const hidden = await get(o.id);
    expect(hidden.status).toBe(404);
    expect((await hidden.json()).error).toBe('order_not_found');
    const act = await stack.api(`/v1/orders/${o.id}/confirm`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(act.status).toBe(404);
    expect((await act.json()).error).toBe('order_not_found');
    const paid = await stack.admin('POST', `/admin/v1/orders/${o.id}/payment`);
    expect(paid.status).toBe(202);
    expect(await paid.json()).toEqual({ status: 'accepted', situation: 'PENDING' });
    expect((await get(o.id)).status).toBe(200);
    const again = await stack.admin('POST', `/admin/v1/orders/${o.id}/payment`);
    expect(await again.json()).toEqual({ status: 'already_applied', situation: 'PENDING' });
    const events = await waitForStream(
      stack.config.NATS_URL,
      stack.prefix,
      (e) => eventsOf(e, o.id).length >= 1,
    );
    expect(eventsOf(events, o.id).map((e) => e.message.envelope.eventType)).toEqual(['CREATED']);
    expect(eventsOf(events, o.id)[0].message.orderSeq).toBe(1);
  });

  it('a never-paid order cancelled by the customer never appears in the stream', async () => {
    const o = await createOrder(stack, merchantId, { type: 'TAKEOUT', paymentPending: true });
    const c = await stack.admin('POST', `/admin/v1/orders/${o.id}/cancel`, { by: 'CUSTOMER' });
    expect(await c.json()).toEqual({ status: 'accepted', situation: 'CANCELLED' });
    const marker = await createOrder(stack, merchantId, { type: 'TAKEOUT' });
    const events = await waitForStream(
      stack.config.NATS_URL,
      stack.prefix,
      (e) => eventsOf(e, marker.id).length >= 1,
    );
    expect(eventsOf(events, o.id)).toEqual([]);
    expect((await stack.admin('POST', `/admin/v1/orders/${o.id}/payment`)).status).toBe(422);
  });

  it('GET answers 404 order_not_found for unknown and foreign orders, 404 ProblemDetails for a non-GUID', async () => {
    const o = await createOrder(stack, merchantId);
    const other = await issueTestToken(stack, { merchantId: randomUUID(), scopes: ['orders:read'] });
    const foreign = await get(o.id, other.token);
    expect(foreign.status).toBe(404);
    expect(await foreign.json()).toEqual({ error: 'order_not_found', message: expect.any(String) });
    const unknown = await get(randomUUID());
    expect(unknown.status).toBe(404);
    expect((await unknown.json()).error).toBe('order_not_found');
    const bad = await get('123');
    expect(bad.status).toBe(404);
    expect(await bad.json()).toEqual({
      type: expect.any(String),
      title: 'Not Found',
      status: 404,
      traceId: expect.any(String),
    });
    const noScope = await issueTestToken(stack, { merchantId, scopes: ['orders:write'] });
    expect((await get(o.id, noScope.token)).status).toBe(403);
    expect((await stack.api(`/v1/orders/${o.id}`)).status).toBe(401);
  });
});
