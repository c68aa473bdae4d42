import {
  CURRENCY,
  type Menu,
  type MenuInput,
  type MenuItem,
  type MenuItemInput,
  type MenuOptionGroup,
  type MenuPrice,
  type MenuPriceInput,
  VARIATIONS_GROUP_NAME,
  VARIATIONS_SUFFIX,
} from './menu.ts';

/**
 * How an admin menu input becomes the served menu (pure). Lives in the contract because the input
 * limit that matters is the size of this result: `menuInputSchema` measures it (BYTES.servedMenu).
 */
export const DEFAULT_MENU_NAME = 'Cardápio';

const price = (p: MenuPriceInput | { value: number; originalValue?: number | null }): MenuPrice => ({
  value: p.value,
  originalValue: p.originalValue ?? null,
  currency: CURRENCY,
});

/** The mandatory size group of an item given with `variations`: one option per variation, at full price. */
export function variationsGroup(item: MenuItemInput, index: number): MenuOptionGroup {
  const id = item.id + VARIATIONS_SUFFIX;
  return {
    id,
    name: VARIATIONS_GROUP_NAME,
    description: 'Escolha o tamanho',
    index,
    status: 'AVAILABLE',
    minPermitted: 1,
    maxPermitted: 1,
    options: (item.variations ?? []).map((v, i) => ({
      id: `${id}-${i + 1}`,
      name: v.name,
      externalCode: v.externalCode ?? (item.externalCode ? `${item.externalCode}-${i + 1}` : ''),
      index: i,
      status: 'AVAILABLE',
      price: price(v.price),
    })),
  };
}

/**
 * Admin input -> the served public menu (pure). Fills defaults; an item with `variations` is served
 * with price 0 and its generated `<itemId>-variacoes` group appended to its optionGroupIds (the group
 * is appended to optionGroups). Unavailable entries stay, with their status. Assumes the input passed
 * `menuInputSchema` (unique ids, valid references).
 */
export function renderMenu(input: MenuInput, menuId: string): Menu {
  const optionGroups: MenuOptionGroup[] = (input.optionGroups ?? []).map((g, gi) => {
    const options = (g.options ?? []).map((o, oi) => ({
      id: o.id,
      name: o.name,
      externalCode: o.externalCode ?? '',
      index: o.index ?? oi,
      status: o.status ?? 'AVAILABLE',
      price: price(o.price),
    }));
    const minPermitted = g.minPermitted ?? 0;
    return {
      id: g.id,
      name: g.name,
      description: g.description ?? null,
      index: g.index ?? gi,
      status: g.status ?? 'AVAILABLE',
      minPermitted,
      maxPermitted: g.maxPermitted ?? Math.max(minPermitted, options.length, 1),
      options,
    };
  });
  const generated: MenuOptionGroup[] = [];
  const items: MenuItem[] = (input.items ?? []).map((it) => {
    const optionGroupIds = [...(it.optionGroupIds ?? [])];
    let itemPrice: MenuPrice;
    if (it.variations) {
      const group = variationsGroup(it, optionGroupIds.length);
      generated.push(group);
      optionGroupIds.push(group.id);
      itemPrice = { value: 0, originalValue: null, currency: CURRENCY };
    } else {
      itemPrice = price(it.price ?? { value: 0 });
    }
    return {
      id: it.id,
      name: it.name,
      description: it.description ?? '',
      externalCode: it.externalCode ?? '',
      status: it.status ?? 'AVAILABLE',
      image: it.image ?? null,
      price: itemPrice,
      optionGroupIds,
    };
  });
  return {
    id: menuId,
    name: input.name ?? DEFAULT_MENU_NAME,
    categories: (input.categories ?? []).map((c, ci) => ({
      id: c.id,
      name: c.name,
      description: c.description ?? '',
      index: c.index ?? ci,
      status: c.status ?? 'AVAILABLE',
      itemOfferIds: [...(c.itemOfferIds ?? [])],
    })),
    items,
    optionGroups: [...optionGroups, ...generated],
  };
}
