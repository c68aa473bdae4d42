import { randomUUID } from 'node:crypto';
import { type MerchantSnapshot, orderIntakeSchema } from '@od/contracts';
import { toOdError, toOdEvent, toOdOrder } from '@od/opendelivery';
import { type OdValidator, odValidator } from '@od/opendelivery/validator';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildOrder } from '../services/orders/src/domain/build.ts';
import { buildEventMessage } from '../services/orders/src/domain/envelope.ts';

// The OPEN_DELIVERY renderings of orders built by the real order builder, checked against the
// official 1.4.0 document (verbatim copy in libs/opendelivery/src/spec) with an OpenAPI validator.
let od: OdValidator;
beforeAll(async () => {
  od = await odValidator();
});

const snapshot: MerchantSnapshot = {
  merchant: { id: randomUUID(), name: 'Pizzaria Aurora' },
  test: false,
  menu: null,
};
const build = (body: unknown) =>
  buildOrder(orderIntakeSchema.parse(body), snapshot, {
    id: randomUUID(),
    displayId: '4242',
    now: new Date('2026-11-22T12:00:00.000Z'),
  }).order;
const APP_ID = '3f6c2a1e-8b4d-4f7a-9c2e-5d1b7a9e0c41';
/** the orders service's Open Delivery view of a built order, rendered */
const render = (order: ReturnType<typeof build>, lastEvent: string | null = 'CREATED') =>
  toOdOrder({ ...order, lastEvent, salesChannel: 'DIGITAL_MENU' }, { appId: APP_ID });

const INTAKES: Record<string, unknown> = {
  'sample delivery': { type: 'DELIVERY' },
  'sample takeout': { type: 'TAKEOUT' },
  'sample indoor': { type: 'INDOOR' },
  'scheduled delivery': {
    type: 'DELIVERY',
    orderTiming: 'SCHEDULED',
    schedule: { scheduledDateTimeStart: '2026-11-22T15:00:00Z' },
  },
  'full order': {
    type: 'DELIVERY',
    customer: {
      name: 'Ana',
      phone: { number: '11999990000', extension: '12' },
      documentNumber: '12345678909',
      email: 'ana@example.com',
      ordersCountOnMerchant: 3,
    },
    items: [
      {
        name: 'Pizza',
        unitPrice: 40,
        quantity: 2,
        unit: 'UN',
        ean: '7891000100103',
        specialInstructions: 'sem cebola',
        options: [{ name: 'Borda', unitPrice: 5, groupName: 'Bordas' }],
      },
    ],
    otherFees: [
      { name: 'Entrega', type: 'DELIVERY', price: 7 },
      { name: 'Serviço', type: 'SERVICE_FEE', receivedBy: 'MARKETPLACE', price: 2 },
    ],
    discounts: [{ amount: 4, sponsorshipValues: [{ name: 'MERCHANT', amount: 4, discountCode: 'X' }] }],
    payments: {
      methods: [
        { value: 50, method: 'CREDIT', type: 'PREPAID', brand: 'VISA' },
        { value: 45, method: 'CASH', type: 'OFFLINE', changeFor: 50 },
      ],
    },
    extraInfo: 'Interfone quebrado',
  },
  'payment pending online': { type: 'TAKEOUT', paymentPending: true },
  'indoor tab': { type: 'INDOOR', indoor: { mode: 'TAB', tab: '17' } },
};

describe('OPEN_DELIVERY order rendering against the official 1.4.0 schema', () => {
  for (const [name, body] of Object.entries(INTAKES)) {
    it(`${name}: valid as the 200 of ordersDetails`, () => {
      const order = build(body);
      const rendered = render(order);
      expect(od.response('ordersDetails', 200, rendered)).toEqual([]);
      expect(JSON.stringify(rendered)).not.toContain('null');
    });
  }

  it('the SPEC document itself is not the standard (the check can fail)', () => {
    expect(od.response('ordersDetails', 200, build({ type: 'DELIVERY' })).length).toBeGreaterThan(0);
  });

  it('renames to the standard names and enumerations', () => {
    const r = render(build(INTAKES['full order'])) as any;
    expect(r.total.itemsPrice).toEqual({ value: 90, currency: 'BRL' });
    expect(r.total.items).toBeUndefined();
    expect(r.items[0].options[0].totalPrice).toEqual({ value: 5, currency: 'BRL' });
    expect(r.otherFees.map((f: any) => f.type)).toEqual(['DELIVERY_FEE', 'SERVICE_FEE']);
    expect(r.payments.methods.map((m: any) => m.type)).toEqual(['PREPAID', 'PENDING']);
    expect(r.sendDelivered).toBe(true);
    expect(r.test).toBeUndefined();
  });
});

describe('OPEN_DELIVERY event envelopes', () => {
  const base = {
    orderId: randomUUID(),
    merchantId: randomUUID(),
    channel: 'DIGITAL_MENU' as const,
    orderSeq: 1,
    baseUrl: 'https://api.example.com',
    createdAt: '2026-11-22T12:00:00.000Z',
  };
  const envelope = (eventType: any, actor: any, metadata?: Record<string, unknown>) =>
    buildEventMessage({ ...base, eventId: randomUUID(), eventType, actor, metadata }).envelope;
  const byCredential = { kind: 'CREDENTIAL', clientId: `odc_${'a'.repeat(24)}` };

  it('standard types validate as a polling page; extensions are mapped or left out', () => {
    const page = [
      envelope('CREATED', { kind: 'CHANNEL' }),
      envelope('CONFIRMED', byCredential),
      envelope('PREPARING', byCredential),
      envelope('READY_FOR_PICKUP', byCredential),
      envelope('DISPATCHED', byCredential),
      envelope('COURIER_ASSIGNED', { kind: 'PANEL' }, { delivery: {} }),
      envelope('COURIER_DELIVERED', { kind: 'PANEL' }, { delivery: {} }),
      envelope('MODIFIED', { kind: 'PANEL' }),
      envelope('CONCLUDED', byCredential),
      envelope('CANCELLED', byCredential, { reason: 'Sem entregador', code: 'OTHER_CANCELLATION_REASON' }),
    ]
      .map((e) => toOdEvent(e, APP_ID))
      .filter((e) => e !== null);
    expect(page.map((e) => e.eventType)).toEqual([
      'CREATED',
      'CONFIRMED',
      'READY_FOR_PICKUP',
      'DISPATCHED',
      'DELIVERED',
      'CONCLUDED',
      'CANCELLED',
    ]);
    expect(od.response('pollingEvents', 200, page)).toEqual([]);
    for (const e of page) expect(od.event(e)).toEqual([]);
    const confirmed = page[1] as any;
    expect(confirmed.sourceAppId).toBe(APP_ID);
    expect(confirmed.metadata).toEqual({ clientId: byCredential.clientId });
  });

  it('the platform envelope with its client-id sourceAppId is not valid there (the check can fail)', () => {
    expect(od.response('pollingEvents', 200, [envelope('CONFIRMED', byCredential)]).length).toBeGreaterThan(
      0,
    );
    const cancelled = envelope('CANCELLED', byCredential, { reason: 'x', code: 'SOME_PLATFORM_CODE' });
    expect(od.event(toOdEvent(cancelled, APP_ID)).length).toBeGreaterThan(0);
  });
});

describe('OPEN_DELIVERY errors', () => {
  it('every platform error body becomes the standard Error', () => {
    const bodies: [number, unknown][] = [
      [404, { error: 'order_not_found', message: 'Pedido não encontrado.' }],
      [422, { error: 'invalid_transition', message: 'Transição inválida.' }],
      [
        400,
        { type: 'about:blank', title: 'One or more validation errors occurred.', status: 400, errors: {} },
      ],
      [401, { error: 'invalid_client' }],
      [500, { error: 'internal_error', message: 'Erro interno.', traceId: 'abc' }],
    ];
    for (const [status, body] of bodies) {
      const e = toOdError(status, body);
      expect(e.status).toBe(status);
      expect(e.title.length).toBeGreaterThan(0);
      const op = status === 422 ? 'confirmOrder' : 'ordersDetails';
      if (status !== 500) expect(od.response(op, status, e)).toEqual([]);
    }
  });
});
