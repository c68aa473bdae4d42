import { randomUUID } from 'node:crypto';
import { type MerchantSnapshot, orderIntakeSchema } from '@od/contracts';
import { isHttpException } from '@od/errors';
import { describe, expect, it } from 'vitest';
import { buildOrder, editOrder } from './build.ts';
import { buildEventMessage } from './envelope.ts';

const snapshot: MerchantSnapshot = { merchant: { id: randomUUID(), name: 'Loja' }, test: true, menu: null };
const ids = () => ({ id: randomUUID(), displayId: '1001', now: new Date('2026-11-22T12:00:00.000Z') });
const build = (body: unknown) => buildOrder(orderIntakeSchema.parse(body), snapshot, ids());
const status = (f: () => unknown) => {
  try {
    f();
    return 'ok';
  } catch (e) {
    return isHttpException(e) ? e.http.status : 'other';
  }
};

describe('order construction (pure)', () => {
  it('computes item, option and order totals in cents (no float drift)', () => {
    const { order } = build({
      type: 'TAKEOUT',
      items: [
        {
          name: 'Café',
          unitPrice: 0.1,
          quantity: 3,
          options: [{ name: 'Leite', unitPrice: 0.2, quantity: 1 }],
        },
        { name: 'Pão', unitPrice: { value: 0.7 }, quantity: 0.5, unit: 'KG' },
      ],
      otherFees: [{ name: 'Serviço', type: 'SERVICE_FEE', price: 0.05 }],
      discounts: [
        { amount: 0.15, sponsorshipValues: [{ name: 'MARKETPLACE', amount: 0.15, discountCode: 'CUPOM' }] },
      ],
      payments: {
        methods: [
          { value: 0.35, method: 'PIX', type: 'PREPAID' },
          { value: 0.8, method: 'CASH', type: 'PENDING' },
        ],
      },
    });
    expect(order.items[0].totalPrice.value).toBe(0.9);
    expect(order.items[1].totalPrice.value).toBe(0.35);
    expect(order.total).toEqual({
      items: { value: 1.25, currency: 'BRL' },
      otherFees: { value: 0.05, currency: 'BRL' },
      discount: { value: 0.15, currency: 'BRL' },
      orderAmount: { value: 1.15, currency: 'BRL' },
    });
    expect(order.payments).toMatchObject({ prepaid: 0.35, pending: 0.8 });
    expect(order.test).toBe(true);
    expect(order.preparationStartDateTime).toBe('2026-11-22T12:00:00.000Z');
  });

  it('refuses inconsistent payments, discounts above the total, oversized amounts and misplaced blocks', () => {
    const pay = (value: number) => ({ methods: [{ value, method: 'CASH', type: 'OFFLINE' }] });
    expect(status(() => build({ type: 'TAKEOUT', payments: pay(45.9) }))).toBe('ok');
    expect(status(() => build({ type: 'TAKEOUT', payments: pay(45.89) }))).toBe(400);
    expect(status(() => build({ type: 'TAKEOUT', payments: { ...pay(45.9), prepaid: 45.9 } }))).toBe(400);
    expect(status(() => build({ type: 'TAKEOUT', discounts: [{ amount: 46 }] }))).toBe(400);
    expect(status(() => build({ type: 'TAKEOUT', discounts: [{ amount: 5, target: 'ITEM' }] }))).toBe(400);
    expect(
      status(() =>
        build({ type: 'TAKEOUT', items: [{ name: 'x', unitPrice: 100_000_000, quantity: 100_000 }] }),
      ),
    ).toBe(400);
    expect(status(() => build({ type: 'INDOOR', takeout: { mode: 'DEFAULT' } }))).toBe(400);
    expect(status(() => build({ type: 'INDOOR', indoor: { mode: 'PLACE' } }))).toBe(400);
    expect(
      status(() =>
        build({
          type: 'DELIVERY',
          orderTiming: 'INSTANT',
          schedule: { scheduledDateTimeStart: '2026-11-22T15:00:00Z' },
        }),
      ),
    ).toBe(400);
    expect(status(() => build({ type: 'DELIVERY', items: [{ itemId: 'x' }] }))).toBe(400);
  });

  it('an edit with a single payment method makes the payment follow the new amount', () => {
    const { order } = build({ type: 'TAKEOUT' });
    const edited = editOrder(
      order,
      { items: [{ name: 'Suco', unitPrice: 8, quantity: 2, externalCode: '', options: [] }] },
      snapshot,
      'DIGITAL_MENU',
    );
    expect(edited.total.orderAmount.value).toBe(16);
    expect(edited.payments).toMatchObject({ prepaid: 0, pending: 16, methods: [{ value: 16 }] });
    expect(edited.id).toBe(order.id);
    expect(edited.createdAt).toBe(order.createdAt);
  });
});

describe('event envelope', () => {
  const base = {
    eventId: randomUUID(),
    orderId: randomUUID(),
    merchantId: randomUUID(),
    channel: 'APP' as const,
    orderSeq: 3,
    baseUrl: 'https://api.example.com/',
    createdAt: '2026-11-22T12:00:00.000Z',
  };
  it('omits optional fields, carries sourceAppId only for credentials, {} metadata for CONFIRMED', () => {
    const m = buildEventMessage({
      ...base,
      eventType: 'CONFIRMED',
      actor: { kind: 'CREDENTIAL', clientId: 'odc_1' },
    });
    expect(m).toEqual({
      merchantId: base.merchantId,
      channel: 'APP',
      orderSeq: 3,
      envelope: {
        eventId: base.eventId,
        eventType: 'CONFIRMED',
        orderId: base.orderId,
        orderURL: `https://api.example.com/v1/orders/${base.orderId}`,
        createdAt: base.createdAt,
        sourceAppId: 'odc_1',
        metadata: {},
      },
    });
    const p = buildEventMessage({ ...base, eventType: 'PREPARING', actor: { kind: 'PANEL' } });
    expect(Object.keys(p.envelope)).toEqual(['eventId', 'eventType', 'orderId', 'orderURL', 'createdAt']);
    const c = buildEventMessage({
      ...base,
      eventType: 'CANCELLED',
      actor: { kind: 'CUSTOMER' },
      metadata: { reason: 'r', code: 'CONSUMER_CANCELLATION_REQUESTED' },
    });
    expect(c.envelope.metadata).toEqual({ reason: 'r', code: 'CONSUMER_CANCELLATION_REQUESTED' });
  });
});
