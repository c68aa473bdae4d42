import { isGuid, type Money, type OdOrder, type OdOrderView, type Order } from '@od/contracts';
import { v5 as uuidv5 } from 'uuid';
import { odEventType } from './events.ts';

/**
 * The Open Delivery 1.4.0 `Order` (components/schemas/Order of the official document) built from
 * the platform's SPEC-shaped order document. Pure: the SPEC document stays the one stored read model;
 * an OPEN_DELIVERY credential receives this rendering of it.
 *
 * Differences it bridges (SPEC shape -> standard):
 * - optional values are omitted instead of `null`;
 * - `total.items` -> `total.itemsPrice`; option `price` -> `totalPrice`;
 * - fee type `DELIVERY` -> `DELIVERY_FEE`; payment type `OFFLINE` -> `PENDING`, `ONLINE` -> `PREPAID`;
 * - fields the standard requires but SPEC lets be null get a value derived from the order
 *   (`unit` `UN`, `formattedAddress` from the address parts, `estimatedDeliveryDateTime` from the
 *   preparation start, `ordersCountOnMerchant` 0 when unknown);
 * - `sendDelivered` tells the point of sale to call `delivered` on orders the merchant delivers;
 *   `sendTracking` is false (the platform does not wait for tracking calls).
 * - every id the standard types as uuid is one: an option's menu id (any text) becomes a UUIDv5 of
 *   the store and that id, so the same option always has the same id (`stableUuid`);
 * - `sourceAppId` is this ordering application's id (OD_APP_ID), `lastEvent` the order's last
 *   standard event, `salesChannel` its ordering channel (the `view` the orders service answers).
 * SPEC-only fields the standard does not know (`test`) are left out.
 */
export type { OdOrder };

/** Namespace of the UUIDv5 ids the renderer derives (a fixed random UUID: never change it). */
export const OD_ID_NAMESPACE = '9a4c1f36-2b7e-4d5a-8e19-6c3f0b7d2a54';

/** `id` itself when it is a GUID; otherwise a UUIDv5 of the store and `id`, stable across calls. */
export function stableUuid(merchantId: string, id: string): string {
  return isGuid(id) ? id : uuidv5(`${merchantId.toLowerCase()}:${id}`, OD_ID_NAMESPACE);
}

export interface OdRenderContext {
  /** this ordering application's Open Delivery AppId (OD_APP_ID) */
  appId: string;
}

type OdFeeType = OdOrder['otherFees'][number]['type'];
type OdPaymentType = OdOrder['payments']['methods'][number]['type'];
const FEE_TYPE: Record<string, OdFeeType> = { DELIVERY: 'DELIVERY_FEE' };
const PAYMENT_TYPE: Record<string, OdPaymentType> = { OFFLINE: 'PENDING', ONLINE: 'PREPAID' };
const CARD_BRANDS = new Set([
  'VISA',
  'MASTERCARD',
  'DINERS',
  'AMEX',
  'HIPERCARD',
  'ELO',
  'AURA',
  'DISCOVER',
  'VR_BENEFICIOS',
  'SODEXO',
  'TICKET',
  'GOOD_CARD',
  'BANESCARD',
  'SOROCARD',
  'POLICARD',
  'VALECARD',
  'AGICARD',
  'JCB',
  'CREDSYSTEM',
  'CABAL',
  'GREEN_CARD',
  'VEROCHEQUE',
  'AVISTA',
  'OTHER',
]);
const BRANDED_METHODS = new Set(['CREDIT', 'DEBIT', 'CREDIT_DEBIT', 'MEAL_VOUCHER', 'FOOD_VOUCHER']);

/** Copies `obj` without the keys whose value is null or undefined. */
export function omitNulls<T extends Record<string, unknown>>(obj: T): NoNulls<T> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(obj)) if (v !== null && v !== undefined) out[k] = v;
  return out as NoNulls<T>;
}
/** `T` with its nullable keys made optional and non-null. */
type NoNulls<T> = {
  [K in keyof T as null extends T[K] ? never : undefined extends T[K] ? never : K]: T[K];
} & {
  [K in keyof T as null extends T[K] ? K : undefined extends T[K] ? K : never]?: Exclude<
    T[K],
    null | undefined
  >;
};

type OdItem = OdOrder['items'][number];
const money = (m: Money) => ({ value: m.value, currency: m.currency });

function formattedAddress(a: NonNullable<Order['delivery']>['deliveryAddress']): string {
  const street = [a.street, a.number].filter(Boolean).join(', ');
  const rest = [a.complement, a.district, `${a.city} - ${a.state}`, a.postalCode].filter(Boolean).join(', ');
  return [street, rest].filter(Boolean).join(', ');
}

export function toOdOrder(o: OdOrderView, ctx: OdRenderContext): OdOrder {
  const lastEvent = o.lastEvent ? odEventType(o.lastEvent) : null;
  const out: OdOrder = {
    id: o.id,
    type: o.type,
    displayId: o.displayId,
    sourceAppId: ctx.appId,
    salesChannel: o.salesChannel,
    createdAt: o.createdAt,
    ...(lastEvent ? { lastEvent } : {}),
    orderTiming: o.orderTiming,
    preparationStartDateTime: o.preparationStartDateTime,
    merchant: { id: o.merchant.id, name: o.merchant.name },
    items: o.items.map((it) => ({
      id: it.id,
      ...omitNulls({ index: it.index }),
      name: it.name,
      externalCode: it.externalCode,
      unit: (it.unit ?? 'UN') as OdItem['unit'],
      ...omitNulls({ ean: it.ean, specialInstructions: it.specialInstructions }),
      quantity: it.quantity,
      unitPrice: money(it.unitPrice),
      optionsPrice: money(it.optionsPrice),
      totalPrice: money(it.totalPrice),
      options: it.options.map((op) => ({
        id: stableUuid(o.merchant.id, op.id),
        ...omitNulls({ index: op.index }),
        name: op.name,
        externalCode: op.externalCode,
        unit: op.unit ?? 'UN',
        quantity: op.quantity,
        unitPrice: money(op.unitPrice),
        totalPrice: money(op.price),
      })),
    })),
    otherFees: o.otherFees.map((f) => ({
      name: f.name,
      type: FEE_TYPE[f.type] ?? (f.type as OdFeeType),
      receivedBy: f.receivedBy,
      price: money(f.price),
    })),
    total: {
      itemsPrice: money(o.total.items),
      otherFees: money(o.total.otherFees),
      discount: money(o.total.discount),
      orderAmount: money(o.total.orderAmount),
    },
    payments: {
      prepaid: o.payments.prepaid,
      pending: o.payments.pending,
      methods: o.payments.methods.map((m) => ({
        value: m.value,
        currency: m.currency,
        type: PAYMENT_TYPE[m.type] ?? (m.type as OdPaymentType),
        method: m.method,
        ...omitNulls({
          brand: m.brand && BRANDED_METHODS.has(m.method) && CARD_BRANDS.has(m.brand) ? m.brand : null,
          methodInfo: m.methodInfo,
          changeFor: m.changeFor,
        }),
      })),
    },
    customer: {
      id: o.customer.id,
      name: o.customer.name,
      phone: omitNulls({ number: o.customer.phone.number, extension: o.customer.phone.extension }),
      ...omitNulls({ documentNumber: o.customer.documentNumber, email: o.customer.email }),
      ordersCountOnMerchant: o.customer.ordersCountOnMerchant ?? 0,
    },
    sendDelivered: o.type === 'DELIVERY' && o.delivery?.deliveredBy === 'MERCHANT',
    sendTracking: false,
  };
  if (o.discounts?.length)
    out.discounts = o.discounts.map((d) => ({
      amount: money(d.amount),
      target: d.target,
      ...omitNulls({ targetId: d.targetId }),
      sponsorshipValues: d.sponsorshipValues.map((s) => ({
        name: s.name,
        amount: money(s.amount),
        ...omitNulls({ discountCode: s.discountCode }),
      })),
    }));
  if (o.schedule) out.schedule = { ...o.schedule };
  if (o.delivery) {
    const a = o.delivery.deliveryAddress;
    out.delivery = {
      deliveredBy: o.delivery.deliveredBy,
      deliveryAddress: {
        ...omitNulls({ ...a, coordinates: undefined }),
        formattedAddress: a.formattedAddress ?? formattedAddress(a),
        coordinates: { latitude: a.coordinates.latitude, longitude: a.coordinates.longitude },
      },
      estimatedDeliveryDateTime: o.delivery.estimatedDeliveryDateTime ?? o.preparationStartDateTime,
      ...omitNulls({ deliveryDateTime: o.delivery.deliveryDateTime }),
    };
  }
  if (o.takeout) out.takeout = { mode: o.takeout.mode, takeoutDateTime: o.takeout.takeoutDateTime };
  if (o.indoor)
    out.indoor = omitNulls({
      mode: o.indoor.mode,
      indoorDateTime: o.indoor.indoorDateTime,
      place: o.indoor.place,
      tab: o.indoor.tab,
    });
  if (o.extraInfo) out.extraInfo = o.extraInfo;
  return out;
}
