import { randomUUID } from 'node:crypto';
import { type ItemIn, isGuid, type MerchantSnapshot, type OrderItem, type OrderOption } from '@od/contracts';
import { bad } from './bad.ts';
import { cents, centsOf, money, priced } from './pricing.ts';

/** An order's items from the intake: by menu id (names, prices, option rules from the menu) or in full. */

type MenuItem = NonNullable<MerchantSnapshot['menu']>['items'][number];

function menuItem(snapshot: MerchantSnapshot, itemId: string, path: string): MenuItem {
  const item = snapshot.menu?.items.find((i) => i.id === itemId);
  if (!item) throw bad(`Item ${itemId} não existe no cardápio da loja.`, path);
  if (item.status !== 'AVAILABLE') throw bad(`Item ${item.name} está indisponível (UNAVAILABLE).`, path);
  return item;
}

/** An item referenced by menu id: names and prices from the menu, option ids from its groups. */
export function itemFromMenu(
  snapshot: MerchantSnapshot,
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

export function buildItem(snapshot: MerchantSnapshot, input: ItemIn, index: number): OrderItem {
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
