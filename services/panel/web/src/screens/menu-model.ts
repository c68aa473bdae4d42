import type { Menu } from '@od/contracts';

/** The menu editor's draft and its conversions from the public menu and to the catalog's input. */
export interface DraftItem {
  id: string;
  name: string;
  description: string;
  categoryId: string;
  available: boolean;
  /** price in reais as typed */
  price: string;
  /** "name=price" lines; when not empty the item has size variations instead of one price */
  variations: string;
  optionGroupIds: string[];
}
export interface DraftGroup {
  id: string;
  name: string;
  min: string;
  max: string;
  /** "name=price" lines */
  options: string;
}
export interface DraftCategory {
  id: string;
  name: string;
  available: boolean;
}
export interface Draft {
  id?: string;
  name: string;
  categories: DraftCategory[];
  items: DraftItem[];
  groups: DraftGroup[];
}

const VARIATIONS = '-variacoes'; // VARIATIONS_SUFFIX of @od/contracts (not bundled: it brings zod)
const lines = (opts: { name: string; price: { value: number } }[]) =>
  opts.map((o) => `${o.name}=${o.price.value}`).join('\n');

export const newId = (prefix: string) => `${prefix}-${Math.random().toString(36).slice(2, 8)}`;

export function fromPublic(menu: Menu | null): Draft {
  if (!menu) return { name: 'Cardápio', categories: [], items: [], groups: [] };
  const generated = new Set(menu.items.map((i) => i.id + VARIATIONS));
  return {
    id: menu.id,
    name: menu.name,
    categories: menu.categories.map((c) => ({
      id: c.id,
      name: c.name,
      available: c.status !== 'UNAVAILABLE',
    })),
    items: menu.items.map((i) => {
      const variations = menu.optionGroups.find((g) => g.id === i.id + VARIATIONS);
      return {
        id: i.id,
        name: i.name,
        description: i.description ?? '',
        categoryId: menu.categories.find((c) => c.itemOfferIds.includes(i.id))?.id ?? '',
        available: i.status !== 'UNAVAILABLE',
        price: variations ? '' : String(i.price.value),
        variations: variations ? lines(variations.options) : '',
        optionGroupIds: i.optionGroupIds.filter((g) => g !== i.id + VARIATIONS),
      };
    }),
    groups: menu.optionGroups
      .filter((g) => !generated.has(g.id))
      .map((g) => ({
        id: g.id,
        name: g.name,
        min: String(g.minPermitted),
        max: String(g.maxPermitted),
        options: lines(g.options),
      })),
  };
}

function parseLines(text: string): { name: string; value: number }[] | null {
  const out: { name: string; value: number }[] = [];
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (!line) continue;
    const i = line.lastIndexOf('=');
    const value = Number(line.slice(i + 1).replace(',', '.'));
    if (i <= 0 || !Number.isFinite(value) || value < 0) return null;
    out.push({ name: line.slice(0, i).trim(), value });
  }
  return out;
}

/** Field errors found before saving (keys are the catalog's paths, e.g. `items[0].price`). */
export function draftErrors(
  d: Draft,
  msg: { required: string; price: string; lines: string; minMax: string },
): Record<string, string> {
  const e: Record<string, string> = {};
  d.categories.forEach((c, i) => {
    if (!c.name.trim()) e[`categories[${i}].name`] = msg.required;
  });
  d.items.forEach((it, i) => {
    if (!it.name.trim()) e[`items[${i}].name`] = msg.required;
    if (it.variations.trim()) {
      if (!parseLines(it.variations)?.length) e[`items[${i}].variations`] = msg.lines;
    } else if (it.price.trim() === '' || !(Number(it.price.replace(',', '.')) >= 0))
      e[`items[${i}].price`] = msg.price;
  });
  d.groups.forEach((g, i) => {
    if (!g.name.trim()) e[`optionGroups[${i}].name`] = msg.required;
    if (!parseLines(g.options)) e[`optionGroups[${i}].options`] = msg.lines;
    if (Number(g.min) > Number(g.max)) e[`optionGroups[${i}].maxPermitted`] = msg.minMax;
  });
  return e;
}

/** The catalog's menu input (PUT /menu). */
export function toInput(d: Draft) {
  return {
    ...(d.id ? { id: d.id } : {}),
    name: d.name,
    categories: d.categories.map((c, index) => ({
      id: c.id,
      name: c.name,
      index,
      status: c.available ? 'AVAILABLE' : 'UNAVAILABLE',
      itemOfferIds: d.items.filter((i) => i.categoryId === c.id).map((i) => i.id),
    })),
    items: d.items.map((i) => ({
      id: i.id,
      name: i.name,
      description: i.description,
      status: i.available ? 'AVAILABLE' : 'UNAVAILABLE',
      ...(i.variations.trim()
        ? {
            variations: (parseLines(i.variations) ?? []).map((v) => ({
              name: v.name,
              price: { value: v.value },
            })),
          }
        : { price: { value: Number(i.price.replace(',', '.')) } }),
      optionGroupIds: i.optionGroupIds,
    })),
    optionGroups: d.groups.map((g, index) => ({
      id: g.id,
      name: g.name,
      index,
      minPermitted: Number(g.min) || 0,
      maxPermitted: Number(g.max) || 0,
      options: (parseLines(g.options) ?? []).map((o, oi) => ({
        id: `${g.id}-${oi + 1}`,
        name: o.name,
        index: oi,
        price: { value: o.value },
      })),
    })),
  };
}
