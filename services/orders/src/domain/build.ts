import { randomUUID } from 'node:crypto';
import {
  type ItemIn,
  isGuid,
  type MerchantSnapshot,
  type Money,
  type Order,
  type OrderDiscount,
  type OrderEdit,
  type OrderFee,
  type OrderIntake,
  type OrderItem,
  type OrderOption,
  type PaymentMethod,
} from '@od/contracts';
import { errors, HttpException } from '@od/errors';
import { parseExtraInfo, renderExtraInfo } from './extra-info.ts';

/**
 * Pure construction of the public Order from a channel's intake (or an edit) and the store's
 * snapshot: sample defaults, menu lookups, totals and the payment check. Throws HttpException
 * 400 (admin body form) on a client mistake.
 */

type MoneyIn = number | { value: number; currency?: 'BRL' };

export const cents = (v: number): number => Math.round(v * 100);
export const money = (c: number): Money => ({ value: c / 100, currency: 'BRL' });
const centsOf = (m: MoneyIn): number => cents(typeof m === 'number' ? m : m.value);

export function bad(message: string, field?: string): HttpException {
  return new HttpException(errors.adminValidation(message, field ? { [field]: [message] } : undefined));
}

const METHOD_INFO: Record<string, string> = {
  CREDIT: 'Cartão de crédito',
  DEBIT: 'Cartão de débito',
  MEAL_VOUCHER: 'Vale-refeição',
  FOOD_VOUCHER: 'Vale-alimentação',
  DIGITAL_WALLET: 'Carteira digital',
  PIX: 'Pix',
  CASH: 'Dinheiro',
  CREDIT_DEBIT: 'Cartão',
  COUPON: 'Cupom',
  REDEEM: 'Resgate',
  PREPAID_REDEEM: 'Resgate pré-pago',
  OTHER: 'Outro',
};
const PREPAID_TYPES = new Set(['ONLINE', 'PREPAID']);

const SAMPLE_ITEM = { name: 'Pizza Margherita', externalCode: 'PZ-MARG', unitPrice: 45.9 };

function sampleAddress() {
  return {
    country: 'BR',
    state: 'SP',
    city: 'São Paulo',
    district: 'Moema',
    street: 'Avenida Ibirapuera',
    number: '3103',
    postalCode: '04029-902',
    complement: null,
    reference: null,
    formattedAddress: 'Avenida Ibirapuera, 3103, Moema - São Paulo, SP - Brasil',
    coordinates: { latitude: -23.6102, longitude: -46.6653 },
  };
}

type Snapshot = MerchantSnapshot;
type MenuItem = NonNullable<Snapshot['menu']>['items'][number];

function menuItem(snapshot: Snapshot, itemId: string, path: string): MenuItem {
  const item = snapshot.menu?.items.find((i) => i.id === itemId);
  if (!item) throw bad(`Item ${itemId} não existe no cardápio da loja.`, path);
  if (item.status !== 'AVAILABLE') throw bad(`Item ${item.name} está indisponível (UNAVAILABLE).`, path);
  return item;
}

/** An item referenced by menu id: names and prices from the menu, option ids from its groups. */
function itemFromMenu(
  snapshot: Snapshot,
  input: Extract<ItemIn, { itemId: string }>,
  index: number,
  path: string,
): OrderItem {
  const item = menuItem(snapshot, input.itemId, `${path}.itemId`);
  const groups = (snapshot.menu?.optionGroups ?? []).filter((g) => item.optionGroupIds.includes(g.id));
  const options: OrderOption[] = [];
  const chosenPerGroup = new Map<string, number>();
  input.options.forEach((o, j) => {
    const group = groups.find((g) => g.options.some((x) => x.id === o.optionId));
    const opt = group?.options.find((x) => x.id === o.optionId);
    if (!group || !opt)
      throw bad(`Opção ${o.optionId} não pertence aos grupos do item ${item.name}.`, `${path}.options[${j}]`);
    if (opt.status !== 'AVAILABLE')
      throw bad(`Opção ${opt.name} está indisponível (UNAVAILABLE).`, `${path}.options[${j}]`);
    chosenPerGroup.set(group.id, (chosenPerGroup.get(group.id) ?? 0) + o.quantity);
    const unit = cents(opt.price.value);
    options.push({
      id: opt.id,
      index: j,
      name: opt.name,
      externalCode: opt.externalCode ?? '',
      quantity: o.quantity,
      unit: null,
      unitPrice: money(unit),
      price: money(Math.round(unit * o.quantity)),
      groupName: group.name,
    });
  });
  for (const g of groups) {
    const n = chosenPerGroup.get(g.id) ?? 0;
    if (n < g.minPermitted || n > g.maxPermitted)
      throw bad(
        `Grupo ${g.name} do item ${item.name} exige entre ${g.minPermitted} e ${g.maxPermitted} opções (${n} escolhidas).`,
        `${path}.options`,
      );
  }
  return priced({
    id: isGuid(item.id) ? item.id : randomUUID(),
    index,
    name: item.name,
    externalCode: item.externalCode ?? '',
    unit: 'UN',
    ean: null,
    quantity: input.quantity,
    specialInstructions: input.specialInstructions ?? null,
    unitCents: cents(item.price.value),
    options,
  });
}

function priced(
  i: Omit<OrderItem, 'unitPrice' | 'optionsPrice' | 'totalPrice'> & { unitCents: number },
): OrderItem {
  const optionsCents = i.options.reduce((s, o) => s + cents(o.price.value), 0);
  const { unitCents, ...rest } = i;
  return {
    id: rest.id,
    index: rest.index,
    name: rest.name,
    externalCode: rest.externalCode,
    unit: rest.unit,
    ean: rest.ean,
    quantity: rest.quantity,
    specialInstructions: rest.specialInstructions,
    unitPrice: money(unitCents),
    optionsPrice: money(optionsCents),
    totalPrice: money(Math.round(rest.quantity * (unitCents + optionsCents))),
    options: rest.options,
  };
}

function buildItem(snapshot: Snapshot, input: ItemIn, index: number): OrderItem {
  const path = `items[${index}]`;
  if ('itemId' in input) return itemFromMenu(snapshot, input, index, path);
  const options: OrderOption[] = input.options.map((o, j) => {
    if ('optionId' in o) {
      throw bad('Opção por optionId só é aceita em itens do cardápio (itemId).', `${path}.options[${j}]`);
    }
    const unit = centsOf(o.unitPrice);
    return {
      id: o.id ?? randomUUID(),
      index: j,
      name: o.name,
      externalCode: o.externalCode,
      quantity: o.quantity,
      unit: o.unit ?? null,
      unitPrice: money(unit),
      price: money(Math.round(unit * o.quantity)),
      groupName: o.groupName ?? null,
    };
  });
  return priced({
    id: input.id ?? randomUUID(),
    index,
    name: input.name,
    externalCode: input.externalCode,
    unit: input.unit ?? 'UN',
    ean: input.ean ?? null,
    quantity: input.quantity,
    specialInstructions: input.specialInstructions ?? null,
    unitCents: centsOf(input.unitPrice),
    options,
  });
}

/** First available menu item with its mandatory options, or a generic pizza when no menu. */
function sampleItems(snapshot: Snapshot): OrderItem[] {
  const menu = snapshot.menu;
  for (const item of menu?.items ?? []) {
    if (item.status !== 'AVAILABLE') continue;
    const options: { optionId: string; quantity: number }[] = [];
    let ok = true;
    for (const g of menu?.optionGroups.filter((x) => item.optionGroupIds.includes(x.id)) ?? []) {
      const avail = g.options.filter((o) => o.status === 'AVAILABLE');
      if (avail.length < g.minPermitted) {
        ok = false;
        break;
      }
      for (const o of avail.slice(0, g.minPermitted)) options.push({ optionId: o.id, quantity: 1 });
    }
    if (ok) return [itemFromMenu(snapshot, { itemId: item.id, quantity: 1, options }, 0, 'items[0]')];
  }
  return [
    priced({
      id: randomUUID(),
      index: 0,
      name: SAMPLE_ITEM.name,
      externalCode: SAMPLE_ITEM.externalCode,
      unit: 'UN',
      ean: null,
      quantity: 1,
      specialInstructions: null,
      unitCents: cents(SAMPLE_ITEM.unitPrice),
      options: [],
    }),
  ];
}

function buildFees(input: OrderIntake['otherFees']): OrderFee[] {
  return (input ?? []).map((f) => ({
    name: f.name,
    type: f.type,
    receivedBy: f.receivedBy,
    price: money(centsOf(f.price)),
  }));
}

function buildDiscounts(input: OrderIntake['discounts'] | null): OrderDiscount[] | null {
  if (!input || input.length === 0) return null;
  return input.map((d, i) => {
    const amount = centsOf(d.amount);
    if (d.target === 'ITEM' && !d.targetId)
      throw bad('targetId é obrigatório para target ITEM.', `discounts[${i}].targetId`);
    const sponsors = (d.sponsorshipValues ?? [{ name: 'MERCHANT' as const, amount: d.amount }]).map((s) => ({
      name: s.name,
      amount: money(centsOf(s.amount)),
      discountCode: ('discountCode' in s ? s.discountCode : null) ?? null,
    }));
    const sum = sponsors.reduce((s, x) => s + cents(x.amount.value), 0);
    if (sum !== amount)
      throw bad(
        `A soma de sponsorshipValues (${sum / 100}) deve ser igual ao valor do desconto (${amount / 100}).`,
        `discounts[${i}].sponsorshipValues`,
      );
    return {
      amount: money(amount),
      target: d.target,
      targetId: d.targetId ?? null,
      sponsorshipValues: sponsors,
    };
  });
}

/** Largest amount stored (numeric(14,2)): anything above is a client mistake (400), never a 500. */
const MAX_CENTS = 1e12;

function totals(items: OrderItem[], fees: OrderFee[], discounts: OrderDiscount[] | null) {
  for (const it of items)
    for (const v of [it.totalPrice, it.optionsPrice, ...it.options.map((o) => o.price)])
      if (cents(v.value) >= MAX_CENTS) throw bad('Valor de item acima do limite permitido.', 'items');
  const i = items.reduce((s, x) => s + cents(x.totalPrice.value), 0);
  const f = fees.reduce((s, x) => s + cents(x.price.value), 0);
  const d = (discounts ?? []).reduce((s, x) => s + cents(x.amount.value), 0);
  if (d > i + f)
    throw bad(`O desconto (${d / 100}) não pode exceder itens + taxas (${(i + f) / 100}).`, 'discounts');
  if (i + f >= MAX_CENTS) throw bad('Valor do pedido acima do limite permitido.', 'items');
  return { i, f, d, amount: i + f - d };
}

function buildPayments(
  input: OrderIntake['payments'],
  amountCents: number,
  paymentPending: boolean,
): Order['payments'] {
  const methodsIn = input?.methods ?? [
    paymentPending
      ? { value: amountCents / 100, method: 'CREDIT' as const, type: 'ONLINE' as const }
      : { value: amountCents / 100, method: 'CREDIT' as const, type: 'OFFLINE' as const },
  ];
  const methods: PaymentMethod[] = methodsIn.map((m) => ({
    value: cents(m.value) / 100,
    currency: 'BRL',
    method: m.method,
    methodInfo: ('methodInfo' in m && m.methodInfo) || METHOD_INFO[m.method] || m.method,
    type: m.type,
    changeFor: ('changeFor' in m ? m.changeFor : null) ?? null,
    brand: ('brand' in m ? m.brand : null) ?? null,
    transaction: ('transaction' in m ? m.transaction : null) ?? null,
  }));
  let prepaid = 0;
  let pending = 0;
  for (const m of methods) {
    if (PREPAID_TYPES.has(m.type)) prepaid += cents(m.value);
    else pending += cents(m.value);
  }
  if (input?.prepaid !== undefined && cents(input.prepaid) !== prepaid)
    throw bad(
      `payments.prepaid (${input.prepaid}) difere da soma dos métodos pré-pagos (${prepaid / 100}).`,
      'payments.prepaid',
    );
  if (input?.pending !== undefined && cents(input.pending) !== pending)
    throw bad(
      `payments.pending (${input.pending}) difere da soma dos métodos a pagar na entrega (${pending / 100}).`,
      'payments.pending',
    );
  if (prepaid + pending !== amountCents)
    throw bad(
      `Os pagamentos (pré-pago ${prepaid / 100} + pendente ${pending / 100} = ${(prepaid + pending) / 100}) devem somar o valor do pedido (${amountCents / 100}).`,
      'payments',
    );
  return { prepaid: prepaid / 100, pending: pending / 100, methods };
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
  if (!input)
    return {
      id: randomUUID(),
      name: 'Cliente Exemplo',
      phone: { number: '11999990000', extension: null },
      documentNumber: null,
      email: null,
      ordersCountOnMerchant: null,
    };
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
  snapshot: Snapshot,
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
  if (input.type !== 'DELIVERY' && input.delivery)
    throw bad('delivery só é aceito em pedidos DELIVERY.', 'delivery');
  if (input.type !== 'TAKEOUT' && input.takeout)
    throw bad('takeout só é aceito em pedidos TAKEOUT.', 'takeout');
  if (input.type !== 'INDOOR' && input.indoor) throw bad('indoor só é aceito em pedidos INDOOR.', 'indoor');
  const readyAt = schedule?.scheduledDateTimeStart ?? plusMin(createdAt, 20);
  const items = input.items ? input.items.map((it, i) => buildItem(snapshot, it, i)) : sampleItems(snapshot);
  const fees: OrderFee[] =
    input.otherFees !== undefined
      ? buildFees(input.otherFees)
      : input.type === 'DELIVERY'
        ? [{ name: 'Taxa de entrega', type: 'DELIVERY', receivedBy: 'MERCHANT', price: money(500) }]
        : [];
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
            place: input.indoor ? (input.indoor.place ?? null) : 'Mesa 7',
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
  snapshot: Snapshot,
  channel: OrderIntake['channel'],
): Order {
  if (current.type !== 'DELIVERY' && edit.delivery)
    throw bad('delivery só é aceito em pedidos DELIVERY.', 'delivery');
  if (current.type !== 'TAKEOUT' && edit.takeout)
    throw bad('takeout só é aceito em pedidos TAKEOUT.', 'takeout');
  if (current.type !== 'INDOOR' && edit.indoor) throw bad('indoor só é aceito em pedidos INDOOR.', 'indoor');
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
