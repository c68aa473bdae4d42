import { randomUUID } from 'node:crypto';
import {
  FEE_RECEIVERS,
  FEE_TYPES,
  type MerchantSnapshot,
  type Order,
  odOrderSchema,
  orderIntakeSchema,
  orderSchema,
  PAYMENT_METHODS,
  PAYMENT_TYPES,
} from '@od/contracts';
import { stableUuid, toOdOrder } from '@od/opendelivery';
import { type OdValidator, odValidator } from '@od/opendelivery/validator';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildOrder } from '../services/orders/src/domain/build.ts';

// Property-based: orders of every type, timing and optional block are generated as intake bodies,
// built by the real order builder, checked against the SPEC Order schema, rendered for
// OPEN_DELIVERY and checked field by field and against the official 1.4.0 document itself.

const APP_ID = '3f6c2a1e-8b4d-4f7a-9c2e-5d1b7a9e0c41';
const MERCHANT = '5e1c3c6a-1b2d-4e5f-8a9b-0c1d2e3f4a5b';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const price = (value: number) => ({ value, originalValue: null, currency: 'BRL' });
const snapshot: MerchantSnapshot = {
  merchant: { id: MERCHANT, name: 'Pizzaria Aurora' },
  test: false,
  menu: {
    id: 'menu-1',
    name: 'Cardápio',
    categories: [],
    items: [
      {
        id: 'pizza-margherita',
        name: 'Pizza Margherita',
        externalCode: 'PZ-1',
        status: 'AVAILABLE',
        price: price(45),
        optionGroupIds: ['bordas'],
      },
    ],
    optionGroups: [
      {
        id: 'bordas',
        name: 'Borda',
        description: null,
        index: 0,
        status: 'AVAILABLE',
        minPermitted: 0,
        maxPermitted: 3,
        options: [
          {
            id: 'borda-catupiry',
            name: 'Catupiry',
            externalCode: 'B1',
            index: 0,
            status: 'AVAILABLE',
            price: price(8),
          },
          {
            id: 'borda-cheddar',
            name: 'Cheddar',
            externalCode: '',
            index: 1,
            status: 'AVAILABLE',
            price: price(7.5),
          },
        ],
      },
    ],
  } as unknown as MerchantSnapshot['menu'],
};

const word = fc.stringMatching(/^[A-Za-zÀ-ú0-9 ]{1,20}$/).filter((s) => s.trim().length > 0);
const cents = (max: number) => fc.integer({ min: 1, max }).map((c) => c / 100);
const maybe = <T>(a: fc.Arbitrary<T>) => fc.option(a, { nil: undefined });

const optionFull = fc.record({
  id: maybe(fc.oneof(fc.uuid(), word)),
  name: word,
  externalCode: word,
  quantity: fc.integer({ min: 1, max: 3 }),
  unit: maybe(fc.constantFrom('UN', 'KG')),
  unitPrice: cents(2_000),
  groupName: maybe(word),
});
const itemFull = fc.record({
  id: maybe(fc.uuid()),
  name: word,
  externalCode: word,
  unit: maybe(fc.constantFrom('UN', 'KG', 'L', 'OZ', 'LB', 'GAL')),
  ean: maybe(fc.stringMatching(/^\d{13}$/)),
  quantity: fc.integer({ min: 1, max: 4 }),
  specialInstructions: maybe(word),
  unitPrice: cents(10_000),
  options: fc.array(optionFull, { maxLength: 3 }),
});
const itemFromMenu = fc.record({
  itemId: fc.constant('pizza-margherita'),
  quantity: fc.integer({ min: 1, max: 3 }),
  specialInstructions: maybe(word),
  options: fc.subarray([{ optionId: 'borda-catupiry' }, { optionId: 'borda-cheddar' }]),
});
const address = fc.record({
  state: fc.constantFrom('SP', 'BR-RJ'),
  city: word,
  district: word,
  street: word,
  number: fc.stringMatching(/^\d{1,5}$/),
  postalCode: fc.stringMatching(/^\d{5}-\d{3}$/),
  complement: maybe(word),
  reference: maybe(word),
  formattedAddress: maybe(word),
  coordinates: fc.record({
    latitude: fc.double({ min: -33, max: 5, noNaN: true }),
    longitude: fc.double({ min: -73, max: -34, noNaN: true }),
  }),
});
const customer = fc.record({
  name: word,
  phone: fc.record({
    number: fc.stringMatching(/^\d{10,11}$/),
    extension: maybe(fc.stringMatching(/^\d{1,4}$/)),
  }),
  documentNumber: maybe(fc.stringMatching(/^\d{11}$/)),
  email: maybe(fc.constant('cliente@example.com')),
  ordersCountOnMerchant: maybe(fc.integer({ min: 0, max: 500 })),
});
const when = fc
  .integer({ min: 1, max: 72 * 60 })
  .map((m) => new Date(Date.UTC(2026, 10, 22, 12) + m * 60_000));
const iso = (d: Date) => d.toISOString();

const intake = fc
  .record({
    type: fc.constantFrom('DELIVERY', 'TAKEOUT', 'INDOOR'),
    scheduled: maybe(fc.tuple(when, fc.integer({ min: 0, max: 120 }))),
    items: maybe(fc.array(fc.oneof(itemFull, itemFromMenu), { minLength: 1, maxLength: 4 })),
    customer: maybe(customer),
    delivery: maybe(
      fc.record({
        deliveredBy: fc.constantFrom('MERCHANT', 'MARKETPLACE'),
        deliveryAddress: maybe(address),
        estimatedDeliveryDateTime: maybe(when.map(iso)),
        deliveryDateTime: maybe(when.map(iso)),
      }),
    ),
    takeout: maybe(
      fc.record({ mode: fc.constantFrom('DEFAULT', 'PICKUP_AREA'), takeoutDateTime: maybe(when.map(iso)) }),
    ),
    indoor: maybe(
      fc.record({
        mode: fc.constantFrom('DEFAULT', 'PLACE', 'TAB'),
        indoorDateTime: maybe(when.map(iso)),
        place: maybe(word),
        tab: maybe(word),
      }),
    ),
    otherFees: maybe(
      fc.array(
        fc.record({
          name: word,
          type: fc.constantFrom(...FEE_TYPES),
          receivedBy: fc.constantFrom(...FEE_RECEIVERS),
          price: cents(2_000),
        }),
        { maxLength: 3 },
      ),
    ),
    discount: maybe(
      fc.record({
        target: fc.constantFrom('CART', 'DELIVERY_FEE', 'ITEM'),
        targetId: maybe(word),
        discountCode: maybe(word),
        sponsor: fc.constantFrom('MARKETPLACE', 'MERCHANT'),
      }),
    ),
    payments: fc.array(
      fc.record({
        method: fc.constantFrom(...PAYMENT_METHODS),
        type: fc.constantFrom(...PAYMENT_TYPES),
        brand: maybe(fc.constantFrom('VISA', 'ELO', 'UNKNOWN_BRAND')),
        methodInfo: maybe(word),
        changeFor: maybe(cents(50_000)),
      }),
      { minLength: 1, maxLength: 3 },
    ),
    extraInfo: maybe(word),
    displayId: maybe(fc.stringMatching(/^[A-Z0-9]{1,8}$/)),
  })
  .map((g) => {
    const body: Record<string, unknown> = {
      type: g.type,
      items: g.items,
      customer: g.customer,
      otherFees: g.otherFees,
      extraInfo: g.extraInfo,
      displayId: g.displayId,
    };
    if (g.scheduled) {
      const [start, minutes] = g.scheduled;
      body.orderTiming = 'SCHEDULED';
      body.schedule = {
        scheduledDateTimeStart: iso(start),
        scheduledDateTimeEnd: iso(new Date(start.getTime() + minutes * 60_000)),
      };
    }
    if (g.type === 'DELIVERY') body.delivery = g.delivery;
    if (g.type === 'TAKEOUT') body.takeout = g.takeout;
    if (g.type === 'INDOOR' && g.indoor) {
      const { mode, place, tab } = g.indoor;
      // PLACE needs a place and TAB a tab (the builder refuses them without)
      body.indoor = {
        ...g.indoor,
        place: mode === 'PLACE' ? (place ?? 'Mesa 4') : place,
        tab: mode === 'TAB' ? (tab ?? '17') : tab,
      };
    }
    return { body, discount: g.discount, payments: g.payments };
  });

/** Builds the order twice: once for its amount, then with a discount and payments that fit it. */
type Generated = typeof intake extends fc.Arbitrary<infer T> ? T : never;
function generatedOrder(g: Generated) {
  const ids = { id: randomUUID(), displayId: '4242', now: new Date('2026-11-22T12:00:00.000Z') };
  const first = buildOrder(orderIntakeSchema.parse(g.body), snapshot, ids).order;
  let amount = Math.round(first.total.orderAmount.value * 100);
  const body = { ...g.body };
  if (g.discount && amount > 1) {
    const d = Math.floor(amount / 10) / 100;
    if (d > 0) {
      body.discounts = [
        {
          amount: d,
          target: g.discount.target,
          targetId: g.discount.target === 'ITEM' ? (g.discount.targetId ?? 'item-1') : g.discount.targetId,
          sponsorshipValues: [{ name: g.discount.sponsor, amount: d, discountCode: g.discount.discountCode }],
        },
      ];
      amount -= Math.round(d * 100);
    }
  }
  // split the amount over the generated methods (the last one takes the rest)
  const n = g.payments.length;
  const share = Math.floor(amount / n);
  body.payments = {
    methods: g.payments.map((p, i) => ({
      ...p,
      value: (i === n - 1 ? amount - share * (n - 1) : share) / 100,
    })),
  };
  return buildOrder(orderIntakeSchema.parse(body), snapshot, ids).order;
}

let od: OdValidator;
beforeAll(async () => {
  od = await odValidator();
});

const RUNS = 150;

describe('OPEN_DELIVERY renderer, property-based against the official 1.4.0 schema', () => {
  it('every generated order: SPEC document valid, standard Order valid, field by field', () => {
    const seen = { DELIVERY: 0, TAKEOUT: 0, INDOOR: 0, SCHEDULED: 0, options: 0, discounts: 0 };
    fc.assert(
      fc.property(
        intake,
        fc.constantFrom(null, 'CREATED', 'CONFIRMED', 'COURIER_DELIVERED'),
        (g, lastEvent) => {
          const spec: Order = generatedOrder(g);
          // the SPEC Order schema describes what the builder produces, exactly (no unknown keys)
          const strict = orderSchema.strict().safeParse(spec);
          expect(strict.success, JSON.stringify(strict.error?.issues)).toBe(true);

          const r = toOdOrder({ ...spec, lastEvent, salesChannel: 'MARKETPLACE' }, { appId: APP_ID });
          expect(od.response('ordersDetails', 200, r)).toEqual([]);
          expect(odOrderSchema.strict().safeParse(r).success).toBe(true);
          expect(JSON.stringify(r)).not.toContain('null');

          // field by field
          expect(r.id).toBe(spec.id);
          expect(r.sourceAppId).toBe(APP_ID);
          expect(r.salesChannel).toBe('MARKETPLACE');
          expect(r.lastEvent).toBe(
            lastEvent === null ? undefined : lastEvent === 'COURIER_DELIVERED' ? 'DELIVERED' : lastEvent,
          );
          expect([r.type, r.displayId, r.createdAt, r.orderTiming, r.preparationStartDateTime]).toEqual([
            spec.type,
            spec.displayId,
            spec.createdAt,
            spec.orderTiming,
            spec.preparationStartDateTime,
          ]);
          expect(r.items).toHaveLength(spec.items.length);
          spec.items.forEach((it, i) => {
            const o = r.items[i];
            expect([o.id, o.name, o.externalCode, o.quantity]).toEqual([
              it.id,
              it.name,
              it.externalCode,
              it.quantity,
            ]);
            expect(o.unit).toBe(it.unit ?? 'UN');
            expect(o.ean).toBe(it.ean ?? undefined);
            expect(o.specialInstructions).toBe(it.specialInstructions ?? undefined);
            expect([o.unitPrice, o.optionsPrice, o.totalPrice]).toEqual([
              it.unitPrice,
              it.optionsPrice,
              it.totalPrice,
            ]);
            it.options.forEach((op, j) => {
              const x = o.options[j];
              seen.options++;
              expect(x.id).toMatch(UUID);
              expect(x.id).toBe(stableUuid(MERCHANT, op.id));
              expect([x.name, x.externalCode, x.quantity, x.unitPrice, x.totalPrice]).toEqual([
                op.name,
                op.externalCode,
                op.quantity,
                op.unitPrice,
                op.price,
              ]);
            });
          });
          expect(r.otherFees.map((f) => [f.name, f.receivedBy, f.price])).toEqual(
            spec.otherFees.map((f) => [f.name, f.receivedBy, f.price]),
          );
          expect(r.total).toEqual({
            itemsPrice: spec.total.items,
            otherFees: spec.total.otherFees,
            discount: spec.total.discount,
            orderAmount: spec.total.orderAmount,
          });
          expect([r.payments.prepaid, r.payments.pending]).toEqual([
            spec.payments.prepaid,
            spec.payments.pending,
          ]);
          expect(r.payments.methods.map((m) => [m.value, m.method, m.changeFor])).toEqual(
            spec.payments.methods.map((m) => [m.value, m.method, m.changeFor ?? undefined]),
          );
          expect(r.customer.id).toBe(spec.customer.id);
          expect(r.customer.name).toBe(spec.customer.name);
          expect(r.customer.phone.number).toBe(spec.customer.phone.number);
          expect(r.customer.ordersCountOnMerchant).toBe(spec.customer.ordersCountOnMerchant ?? 0);
          // each optional block is there exactly when the SPEC order has it
          expect(!!r.delivery).toBe(!!spec.delivery);
          expect(!!r.takeout).toBe(!!spec.takeout);
          expect(!!r.indoor).toBe(!!spec.indoor);
          expect(r.schedule).toEqual(spec.schedule ?? undefined);
          expect(r.discounts?.length ?? 0).toBe(spec.discounts?.length ?? 0);
          if (spec.delivery && r.delivery) {
            const a = spec.delivery.deliveryAddress;
            expect(r.delivery.deliveredBy).toBe(spec.delivery.deliveredBy);
            expect(r.delivery.deliveryAddress.street).toBe(a.street);
            expect(r.delivery.deliveryAddress.coordinates).toEqual(a.coordinates);
            expect(r.delivery.deliveryAddress.complement).toBe(a.complement ?? undefined);
          }
          if (spec.indoor && r.indoor)
            expect([r.indoor.mode, r.indoor.tab]).toEqual([spec.indoor.mode, spec.indoor.tab ?? undefined]);
          expect(r.sendDelivered).toBe(spec.type === 'DELIVERY' && spec.delivery?.deliveredBy === 'MERCHANT');
          expect(r.extraInfo).toBe(spec.extraInfo ?? undefined);
          seen[spec.type]++;
          if (spec.schedule) seen.SCHEDULED++;
          if (spec.discounts) seen.discounts++;
        },
      ),
      { numRuns: RUNS },
    );
    // the generator reached every kind of order
    for (const [k, n] of Object.entries(seen)) expect(n, k).toBeGreaterThan(0);
  });

  it('an option id is stable: the same menu option always renders to the same UUID, per store', () => {
    const a = stableUuid(MERCHANT, 'borda-catupiry');
    expect(a).toMatch(UUID);
    expect(stableUuid(MERCHANT.toUpperCase(), 'borda-catupiry')).toBe(a);
    expect(stableUuid(randomUUID(), 'borda-catupiry')).not.toBe(a);
    const guid = randomUUID();
    expect(stableUuid(MERCHANT, guid)).toBe(guid);
  });
});
