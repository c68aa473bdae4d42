import { z } from 'zod';
import { GUID_PATTERN } from './ids.ts';
import { COUNT, TEXT, text } from './limits.ts';

/**
 * SPEC "Menu": the public shape served by `GET /v1/merchant/{merchantId}/menus` (an array holding a
 * single menu), and the admin input of `PUT /admin/v1/merchants/{merchantId}/menu`, where an item
 * may carry `variations` instead of one price.
 */
export const MENU_STATUSES = ['AVAILABLE', 'UNAVAILABLE'] as const;
export type MenuStatus = (typeof MENU_STATUSES)[number];
export const CURRENCY = 'BRL';
/** Suffix of the option group generated for an item with variations: `<itemId>-variacoes`. */
export const VARIATIONS_SUFFIX = '-variacoes';
export const VARIATIONS_GROUP_NAME = 'Tamanho';

// ---------- public shape (what is served) ----------
export const menuPriceSchema = z.object({
  value: z.number(),
  originalValue: z.number().nullable(),
  currency: z.string(),
});
export const menuOptionSchema = z.object({
  id: z.string(),
  name: z.string(),
  externalCode: z.string(),
  index: z.number().int(),
  status: z.enum(MENU_STATUSES),
  price: menuPriceSchema,
});
export const menuOptionGroupSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  index: z.number().int(),
  status: z.enum(MENU_STATUSES),
  minPermitted: z.number().int(),
  maxPermitted: z.number().int(),
  options: z.array(menuOptionSchema),
});
export const menuItemSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  externalCode: z.string(),
  status: z.enum(MENU_STATUSES),
  image: z.string().nullable(),
  price: menuPriceSchema,
  optionGroupIds: z.array(z.string()),
});
export const menuCategorySchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  index: z.number().int(),
  status: z.enum(MENU_STATUSES),
  itemOfferIds: z.array(z.string()),
});
export const menuSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    categories: z.array(menuCategorySchema),
    items: z.array(menuItemSchema),
    optionGroups: z.array(menuOptionGroupSchema),
  })
  .meta({ id: 'Menu', description: 'SPEC "Menu"' });
/** `GET /v1/merchant/{merchantId}/menus` answers an array with exactly one menu. */
export const menusSchema = z.array(menuSchema).meta({ id: 'Menus' });

export type MenuPrice = z.infer<typeof menuPriceSchema>;
export type MenuOption = z.infer<typeof menuOptionSchema>;
export type MenuOptionGroup = z.infer<typeof menuOptionGroupSchema>;
export type MenuItem = z.infer<typeof menuItemSchema>;
export type MenuCategory = z.infer<typeof menuCategorySchema>;
export type Menu = z.infer<typeof menuSchema>;

// ---------- admin input (PUT /admin/v1/merchants/{merchantId}/menu) ----------
const id = text(TEXT.id).trim().min(1, 'id vazio');
const ref = text(TEXT.id);
const name = text(TEXT.name).min(1, 'nome vazio');
const money = z
  .number()
  .finite()
  .nonnegative('o preço deve ser maior ou igual a 0')
  .max(1_000_000, 'preço acima do máximo (1000000)');
const status = z.enum(MENU_STATUSES);
const index = z.number().int().nonnegative().max(100_000);

export const menuPriceInputSchema = z.object({
  value: money,
  originalValue: money.nullable().optional(),
  currency: z.literal(CURRENCY, 'a moeda é sempre BRL').optional(),
});
export const menuVariationInputSchema = z.object({
  name,
  price: z.object({ value: money, originalValue: money.nullable().optional() }),
  externalCode: text(TEXT.code).optional(),
});
export const menuOptionInputSchema = z.object({
  id,
  name,
  externalCode: text(TEXT.code).optional(),
  index: index.optional(),
  status: status.optional(),
  price: menuPriceInputSchema,
});
export const menuOptionGroupInputSchema = z.object({
  id,
  name,
  description: text(TEXT.groupDescription).nullable().optional(),
  index: index.optional(),
  status: status.optional(),
  minPermitted: z.number().int().nonnegative().max(1000).optional(),
  maxPermitted: z.number().int().nonnegative().max(1000).optional(),
  options: z.array(menuOptionInputSchema).max(COUNT.groupOptions).optional(),
});
export const menuItemInputSchema = z.object({
  id,
  name,
  description: text(TEXT.description).optional(),
  externalCode: text(TEXT.code).optional(),
  status: status.optional(),
  image: text(TEXT.url).nullable().optional(),
  price: menuPriceInputSchema.optional(),
  /** instead of `price`: one option per variation in a mandatory `<itemId>-variacoes` group */
  variations: z
    .array(menuVariationInputSchema)
    .min(1, 'variations vazio')
    .max(COUNT.itemVariations)
    .optional(),
  optionGroupIds: z.array(ref).max(COUNT.itemGroupRefs).optional(),
});
export const menuCategoryInputSchema = z.object({
  id,
  name,
  description: text(TEXT.description).optional(),
  index: index.optional(),
  status: status.optional(),
  itemOfferIds: z.array(ref).max(COUNT.categoryItemRefs).optional(),
});

type Issue = { path: (string | number)[]; message: string };

/** Cross-reference rules of a menu input (pure): unique ids, existing references, min <= max. */
export function menuInputIssues(menu: {
  categories?: { id: string; itemOfferIds?: string[] }[];
  items?: {
    id: string;
    price?: unknown;
    variations?: unknown[];
    optionGroupIds?: string[];
  }[];
  optionGroups?: {
    id: string;
    minPermitted?: number;
    maxPermitted?: number;
    options?: { id: string }[];
  }[];
}): Issue[] {
  const issues: Issue[] = [];
  const categories = menu.categories ?? [];
  const items = menu.items ?? [];
  const groups = menu.optionGroups ?? [];
  const unique = (list: { id: string }[], key: string, what: string) => {
    const seen = new Set<string>();
    list.forEach((e, i) => {
      if (seen.has(e.id)) issues.push({ path: [key, i, 'id'], message: `${what} com id repetido: ${e.id}` });
      seen.add(e.id);
    });
    return seen;
  };
  const itemIds = unique(items, 'items', 'item');
  unique(categories, 'categories', 'categoria');
  const groupIds = unique(groups, 'optionGroups', 'grupo de opções');
  const optionIds = new Set<string>();
  groups.forEach((g, gi) => {
    (g.options ?? []).forEach((o, oi) => {
      if (optionIds.has(o.id))
        issues.push({
          path: ['optionGroups', gi, 'options', oi, 'id'],
          message: `opção com id repetido: ${o.id}`,
        });
      optionIds.add(o.id);
    });
    const min = g.minPermitted ?? 0;
    if (g.maxPermitted !== undefined && min > g.maxPermitted)
      issues.push({
        path: ['optionGroups', gi, 'minPermitted'],
        message: `minPermitted (${min}) maior que maxPermitted (${g.maxPermitted})`,
      });
  });
  categories.forEach((c, ci) => {
    const seen = new Set<string>();
    (c.itemOfferIds ?? []).forEach((ref, ri) => {
      if (!itemIds.has(ref))
        issues.push({ path: ['categories', ci, 'itemOfferIds', ri], message: `item inexistente: ${ref}` });
      else if (seen.has(ref))
        issues.push({ path: ['categories', ci, 'itemOfferIds', ri], message: `item repetido: ${ref}` });
      seen.add(ref);
    });
  });
  items.forEach((it, ii) => {
    const seen = new Set<string>();
    (it.optionGroupIds ?? []).forEach((ref, ri) => {
      if (!groupIds.has(ref))
        issues.push({
          path: ['items', ii, 'optionGroupIds', ri],
          message: `grupo de opções inexistente: ${ref}`,
        });
      else if (seen.has(ref))
        issues.push({ path: ['items', ii, 'optionGroupIds', ri], message: `grupo repetido: ${ref}` });
      seen.add(ref);
    });
    const hasPrice = it.price !== undefined;
    const hasVariations = it.variations !== undefined;
    if (hasPrice === hasVariations)
      issues.push({
        path: ['items', ii, hasPrice ? 'variations' : 'price'],
        message: hasPrice ? 'informe price ou variations, não ambos' : 'informe price ou variations',
      });
    if (hasVariations) {
      const gid = it.id + VARIATIONS_SUFFIX;
      if (groupIds.has(gid))
        issues.push({
          path: ['items', ii, 'variations'],
          message: `o grupo ${gid} é gerado a partir de variations e já existe em optionGroups`,
        });
      (it.variations ?? []).forEach((_, vi) => {
        const oid = `${gid}-${vi + 1}`;
        if (optionIds.has(oid))
          issues.push({
            path: ['items', ii, 'variations', vi],
            message: `a opção ${oid} gerada a partir de variations já existe`,
          });
      });
    }
  });
  return issues;
}

/** The admin menu input's shape; `menuInputSchema` (menu-input.ts) adds the cross-field and size checks. */
export const menuInputObject = z.strictObject({
  // strict: a wrong shape (e.g. { menu: {...} }) is a 400, never an empty menu
  /** the store's menu id (GUID); when given, it becomes the store's menu id */
  id: z.string().regex(GUID_PATTERN, 'id do cardápio deve ser um GUID').optional(),
  name: name.optional(),
  categories: z.array(menuCategoryInputSchema).max(COUNT.menuCategories).optional(),
  items: z.array(menuItemInputSchema).max(COUNT.menuItems).optional(),
  optionGroups: z.array(menuOptionGroupInputSchema).max(COUNT.menuOptionGroups).optional(),
});

export type MenuPriceInput = z.infer<typeof menuPriceInputSchema>;
export type MenuVariationInput = z.infer<typeof menuVariationInputSchema>;
export type MenuItemInput = z.infer<typeof menuItemInputSchema>;
export type MenuOptionGroupInput = z.infer<typeof menuOptionGroupInputSchema>;
export type MenuCategoryInput = z.infer<typeof menuCategoryInputSchema>;
export type MenuInput = z.infer<typeof menuInputObject>;
