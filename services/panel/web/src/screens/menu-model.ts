import type { Menu } from '@od/contracts';
import { formatBrl, parseBrl } from '../words.ts';

/** The menu editor's draft and its conversions from the public menu and to the catalog's input. */
export interface DraftItem {
  id: string;
  name: string;
  description: string;
  categoryId: string;
  available: boolean;
  /** price in reais as typed ("12,50") */
  price: string;
  /** sizes, each with its own price; when not empty the item has no single price */
  variations: PricedRow[];
  optionGroupIds: string[];
}
export interface DraftGroup {
  id: string;
  name: string;
  min: string;
  max: string;
  options: PricedRow[];
}
/** A size or an option: its name and its price in reais as typed ("12,50"). */
export interface PricedRow {
  name: string;
  price: string;
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
const rows = (opts: { name: string; price: { value: number } }[]): PricedRow[] =>
  opts.map((o) => ({ name: o.name, price: formatBrl(o.price.value) }));

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
        price: variations ? '' : formatBrl(i.price.value),
        variations: variations ? rows(variations.options) : [],
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
        options: rows(g.options),
      })),
  };
}

/** Rows with a name and a price >= 0 (empty rows left out), or null when one is wrong. */
function parseRows(list: PricedRow[]): { name: string; value: number }[] | null {
  const out: { name: string; value: number }[] = [];
  for (const r of list) {
    if (!r.name.trim() && !r.price.trim()) continue;
    const value = parseBrl(r.price);
    if (!r.name.trim() || Number.isNaN(value)) return null;
    out.push({ name: r.name.trim(), value });
  }
  return out;
}

const hasRows = (list: PricedRow[]) => list.some((r) => r.name.trim() || r.price.trim());

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
    if (hasRows(it.variations)) {
      if (!parseRows(it.variations)?.length) e[`items[${i}].variations`] = msg.lines;
    } else if (Number.isNaN(parseBrl(it.price))) e[`items[${i}].price`] = msg.price;
  });
  d.groups.forEach((g, i) => {
    if (!g.name.trim()) e[`optionGroups[${i}].name`] = msg.required;
    if (!parseRows(g.options)) e[`optionGroups[${i}].options`] = msg.lines;
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
      ...(hasRows(i.variations)
        ? {
            variations: (parseRows(i.variations) ?? []).map((v) => ({
              name: v.name,
              price: { value: v.value },
            })),
          }
        : { price: { value: parseBrl(i.price) } }),
      optionGroupIds: i.optionGroupIds,
    })),
    optionGroups: d.groups.map((g, index) => ({
      id: g.id,
      name: g.name,
      index,
      minPermitted: Number(g.min) || 0,
      maxPermitted: Number(g.max) || 0,
      options: (parseRows(g.options) ?? []).map((o, oi) => ({
        id: `${g.id}-${oi + 1}`,
        name: o.name,
        index: oi,
        price: { value: o.value },
      })),
    })),
  };
}
