import { randomUUID } from 'node:crypto';
import type { MerchantSnapshot, Order, OrderEdit, OrderIntake } from '@od/contracts';
import { bad } from './bad.ts';
import { parseExtraInfo, renderExtraInfo } from './extra-info.ts';
import { buildItem } from './items.ts';
import { buildDiscounts, buildFees, buildPayments, cents, money, PREPAID_TYPES, totals } from './pricing.ts';
import { SAMPLE_PLACE, sampleAddress, sampleCustomer, sampleFees, sampleItems } from './samples.ts';

/**
 * Pure assembly of the public Order from a channel's intake (or an edit) and the store's snapshot:
 * items (items.ts), prices and the payment check (pricing.ts), sample defaults (samples.ts). Throws
 * HttpException 400 (admin body form) on a client mistake.
 */

const BLOCKS = [
  ['delivery', 'DELIVERY'],
  ['takeout', 'TAKEOUT'],
  ['indoor', 'INDOOR'],
] as const;

/** The delivery, takeout and indoor blocks belong to orders of their type (intake and edit alike). */
function checkBlocks(
  type: Order['type'],
  blocks: { delivery?: unknown; takeout?: unknown; indoor?: unknown },
) {
  for (const [block, blockType] of BLOCKS)
    if (type !== blockType && blocks[block])
      throw bad(`${block} só é aceito em pedidos ${blockType}.`, block);
}

const iso = (d: Date | string) => new Date(d).toISOString();
const plusMin = (d: Date | string, m: number) => new Date(new Date(d).getTime() + m * 60_000).toISOString();

function buildDelivery(input: OrderIntake['delivery'], createdAt: string): Order['delivery'] {
  const a = input?.deliveryAddress;
  return {
    deliveryDateTime: input?.deliveryDateTime ? iso(input.deliveryDateTime) : null,
    estimatedDeliveryDateTime: input?.estimatedDeliveryDateTime
      ? iso(input.estimatedDeliveryDateTime)
      : input?.estimatedDeliveryDateTime === null
        ? null
        : plusMin(createdAt, 45),
    deliveredBy: input?.deliveredBy ?? 'MERCHANT',
    deliveryAddress: a
      ? {
          country: a.country,
          state: a.state,
          city: a.city,
          district: a.district,
          street: a.street,
          number: a.number,
          postalCode: a.postalCode,
          complement: a.complement ?? null,
          reference: a.reference ?? null,
          formattedAddress: a.formattedAddress ?? null,
          coordinates: { latitude: a.coordinates.latitude, longitude: a.coordinates.longitude },
        }
      : sampleAddress(),
  };
}

function buildCustomer(input: OrderIntake['customer']): Order['customer'] {
  if (!input) return sampleCustomer();
  return {
    id: input.id ?? randomUUID(),
    name: input.name,
    phone: { number: input.phone.number, extension: input.phone.extension ?? null },
    documentNumber: input.documentNumber ?? null,
    email: input.email ?? null,
    ordersCountOnMerchant: input.ordersCountOnMerchant ?? null,
  };
}

export interface BuiltOrder {
  order: Order;
  situation: 'PENDING' | 'PENDING_PAYMENT';
}

export function buildOrder(
  input: OrderIntake,
  snapshot: MerchantSnapshot,
  ids: { id: string; displayId: string; now: Date },
): BuiltOrder {
  const createdAt = ids.now.toISOString();
  const timing = input.orderTiming ?? (input.schedule ? 'SCHEDULED' : 'INSTANT');
  let schedule: Order['schedule'] = null;
  if (timing === 'SCHEDULED') {
    const start = input.schedule ? iso(input.schedule.scheduledDateTimeStart) : plusMin(createdAt, 60);
    const end = input.schedule?.scheduledDateTimeEnd
      ? iso(input.schedule.scheduledDateTimeEnd)
      : plusMin(start, 30);
    if (end < start)
      throw bad('scheduledDateTimeEnd deve ser posterior a scheduledDateTimeStart.', 'schedule');
    schedule = { scheduledDateTimeStart: start, scheduledDateTimeEnd: end };
  } else if (input.schedule) {
    throw bad('schedule só é aceito com orderTiming SCHEDULED.', 'schedule');
  }
  checkBlocks(input.type, input);
  const readyAt = schedule?.scheduledDateTimeStart ?? plusMin(createdAt, 20);
  const items = input.items ? input.items.map((it, i) => buildItem(snapshot, it, i)) : sampleItems(snapshot);
  const fees = input.otherFees !== undefined ? buildFees(input.otherFees) : sampleFees(input.type);
  const discounts = buildDiscounts(input.discounts);
  const t = totals(items, fees, discounts);
  const order: Order = {
    id: ids.id,
    displayId: input.displayId ?? ids.displayId,
    type: input.type,
    orderTiming: timing,
    createdAt,
    preparationStartDateTime: schedule ? schedule.scheduledDateTimeStart : createdAt,
    merchant: { id: snapshot.merchant.id, name: snapshot.merchant.name },
    customer: buildCustomer(input.customer),
    items,
    otherFees: fees,
    discounts,
    total: { items: money(t.i), otherFees: money(t.f), discount: money(t.d), orderAmount: money(t.amount) },
    payments: buildPayments(input.payments, t.amount, input.paymentPending),
    delivery: input.type === 'DELIVERY' ? buildDelivery(input.delivery, createdAt) : null,
    takeout:
      input.type === 'TAKEOUT'
        ? {
            mode: input.takeout?.mode ?? 'DEFAULT',
            takeoutDateTime: input.takeout?.takeoutDateTime ? iso(input.takeout.takeoutDateTime) : readyAt,
          }
        : null,
    indoor:
      input.type === 'INDOOR'
        ? {
            mode: input.indoor?.mode ?? (input.indoor ? 'DEFAULT' : 'PLACE'),
            indoorDateTime: input.indoor?.indoorDateTime ? iso(input.indoor.indoorDateTime) : readyAt,
            place: input.indoor ? (input.indoor.place ?? null) : SAMPLE_PLACE,
            tab: input.indoor?.tab ?? null,
          }
        : null,
    schedule,
    extraInfo: renderExtraInfo({ channel: input.channel, origin: input.origin, notes: input.extraInfo }),
    test: snapshot.test,
  };
  if (order.indoor?.mode === 'PLACE' && !order.indoor.place)
    throw bad('place é obrigatório no modo PLACE.', 'indoor.place');
  if (order.indoor?.mode === 'TAB' && !order.indoor.tab)
    throw bad('tab é obrigatório no modo TAB.', 'indoor.tab');
  return { order, situation: input.paymentPending ? 'PENDING_PAYMENT' : 'PENDING' };
}

/** A block an edit may change (takeout, indoor): rebuilt from the edit when the order has one, else kept. */
const editBlock = <C, E>(current: C | null, edit: E | undefined, apply: (e: E, c: C) => C): C | null =>
  edit && current ? apply(edit, current) : current;

/**
 * Applies a content edit to an existing order (same rules as intake). When payments are omitted
 * and the order has exactly one payment method, that method follows the new amount.
 */
export function editOrder(
  current: Order,
  edit: OrderEdit,
  snapshot: MerchantSnapshot,
  channel: OrderIntake['channel'],
): Order {
  checkBlocks(current.type, edit);
  const items = edit.items ? edit.items.map((it, i) => buildItem(snapshot, it, i)) : current.items;
  const fees = edit.otherFees ? buildFees(edit.otherFees) : current.otherFees;
  const discounts = edit.discounts !== undefined ? buildDiscounts(edit.discounts) : current.discounts;
  const t = totals(items, fees, discounts);
  let payments: Order['payments'];
  if (edit.payments) payments = buildPayments(edit.payments, t.amount, false);
  else if (t.amount === cents(current.total.orderAmount.value)) payments = current.payments;
  else if (current.payments.methods.length === 1) {
    const m = { ...current.payments.methods[0], value: t.amount / 100 };
    const prepaid = PREPAID_TYPES.has(m.type);
    payments = { prepaid: prepaid ? m.value : 0, pending: prepaid ? 0 : m.value, methods: [m] };
  } else {
    throw bad(
      `O novo valor do pedido (${t.amount / 100}) exige informar payments (há mais de um método de pagamento).`,
      'payments',
    );
  }
  const delivery =
    edit.delivery && current.delivery
      ? buildDelivery(
          {
            deliveredBy: edit.delivery.deliveredBy,
            deliveryAddress: edit.delivery.deliveryAddress,
            estimatedDeliveryDateTime:
              edit.delivery.estimatedDeliveryDateTime === undefined
                ? current.delivery.estimatedDeliveryDateTime
                : edit.delivery.estimatedDeliveryDateTime,
            deliveryDateTime:
              edit.delivery.deliveryDateTime === undefined
                ? current.delivery.deliveryDateTime
                : edit.delivery.deliveryDateTime,
          },
          current.createdAt,
        )
      : current.delivery;
  if (delivery && edit.delivery && !edit.delivery.deliveryAddress && current.delivery)
    delivery.deliveryAddress = current.delivery.deliveryAddress;
  return {
    ...current,
    customer: edit.customer
      ? { ...buildCustomer(edit.customer), id: edit.customer.id ?? current.customer.id }
      : current.customer,
    items,
    otherFees: fees,
    discounts,
    total: { items: money(t.i), otherFees: money(t.f), discount: money(t.d), orderAmount: money(t.amount) },
    payments,
    delivery,
    takeout: editBlock(current.takeout, edit.takeout, (e, c) => ({
      mode: e.mode,
      takeoutDateTime: e.takeoutDateTime ? iso(e.takeoutDateTime) : c.takeoutDateTime,
    })),
    indoor: editBlock(current.indoor, edit.indoor, (e, c) => ({
      mode: e.mode,
      indoorDateTime: e.indoorDateTime ? iso(e.indoorDateTime) : c.indoorDateTime,
      place: e.place ?? null,
      tab: e.tab ?? null,
    })),
    extraInfo:
      edit.extraInfo !== undefined
        ? renderExtraInfo({ ...parseExtraInfo(current.extraInfo, channel), notes: edit.extraInfo })
        : current.extraInfo,
  };
}
