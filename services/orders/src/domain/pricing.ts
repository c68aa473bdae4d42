import type {
  Money,
  Order,
  OrderDiscount,
  OrderFee,
  OrderIntake,
  OrderItem,
  PaymentMethod,
} from '@od/contracts';
import { bad } from './bad.ts';

/** Prices in integer cents (no float drift): item and option prices, fees, discounts, totals, payments. */

type MoneyIn = number | { value: number; currency?: 'BRL' };

export const cents = (v: number): number => Math.round(v * 100);
export const money = (c: number): Money => ({ value: c / 100, currency: 'BRL' });
export const centsOf = (m: MoneyIn): number => cents(typeof m === 'number' ? m : m.value);

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
export const PREPAID_TYPES = new Set(['ONLINE', 'PREPAID']);

/** An item's unit, options and total prices from its unit price in cents and its priced options. */
export function priced(
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

export function buildFees(input: OrderIntake['otherFees']): OrderFee[] {
  return (input ?? []).map((f) => ({
    name: f.name,
    type: f.type,
    receivedBy: f.receivedBy,
    price: money(centsOf(f.price)),
  }));
}

export function buildDiscounts(input: OrderIntake['discounts'] | null): OrderDiscount[] | null {
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

export function totals(items: OrderItem[], fees: OrderFee[], discounts: OrderDiscount[] | null) {
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

export function buildPayments(
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
