import { randomUUID } from 'node:crypto';
import type { MerchantSnapshot, Order, OrderFee, OrderItem } from '@od/contracts';
import { itemFromMenu } from './items.ts';
import { cents, money, priced } from './pricing.ts';

/**
 * Sample (demo) data: what an intake leaves out is filled with plausible values, so a channel or the
 * panel can place a test order with `{ "type": "DELIVERY" }` alone.
 */

const SAMPLE_ITEM = { name: 'Pizza Margherita', externalCode: 'PZ-MARG', unitPrice: 45.9 };

export function sampleAddress(): NonNullable<Order['delivery']>['deliveryAddress'] {
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

export /** First available menu item with its mandatory options, or a generic pizza when no menu. */
function sampleItems(snapshot: MerchantSnapshot): OrderItem[] {
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

export function sampleCustomer(): Order['customer'] {
  return {
    id: randomUUID(),
    name: 'Cliente Exemplo',
    phone: { number: '11999990000', extension: null },
    documentNumber: null,
    email: null,
    ordersCountOnMerchant: null,
  };
}

/** The fees of an intake without `otherFees`: a delivery fee on DELIVERY orders. */
export const sampleFees = (type: Order['type']): OrderFee[] =>
  type === 'DELIVERY'
    ? [{ name: 'Taxa de entrega', type: 'DELIVERY', receivedBy: 'MERCHANT', price: money(500) }]
    : [];

/** The table of an INDOOR intake without an `indoor` block. */
export const SAMPLE_PLACE = 'Mesa 7';
