import {
  type DeliveryAddress,
  type MENU_STATUSES,
  type MenuInput,
  type MerchantPatch,
  SERVICE_TYPES,
  TEXT,
  text,
} from '@od/contracts';
import { z } from 'zod';

/**
 * The standard's Merchant module in its own direction (the menu lives in the point of sale): the
 * request bodies the platform takes (`PUT /v1/merchantOnboarding`, `POST /v1/menuUpdated`), the
 * `GET /v1/merchantStatus` answer, and the pure reading of a `GET /v1/merchant` document (already
 * valid against the official Merchant schema) into the platform's store fields and single menu.
 */

/** components/schemas/MerchantAPIInfo */
export const merchantApiInfoSchema = z.object({
  getMerchantURL: z
    .object({
      baseURL: text(TEXT.url).min(1),
      apiKey: text(1000).optional(),
    })
    .optional(),
  ordersWebhookURL: text(TEXT.url).optional(),
});
export type MerchantApiInfo = z.infer<typeof merchantApiInfoSchema>;

/** components/schemas/MerchantStatus */
export const OD_READ_STATUSES = ['SUCCESS', 'PROCESSING', 'FAIL'] as const;
export const merchantStatusSchema = z.object({
  lastRead: z.string(),
  status: z.enum(OD_READ_STATUSES),
  moreInfo: z.string().optional(),
});
export type OdMerchantStatus = z.infer<typeof merchantStatusSchema>;

/** `merchantId` of the standard's query strings: the software service's id of the merchant. */
export const odMerchantIdSchema = text(100).min(1);

/** The URL fetched for `GET /v1/merchant`: as registered, or `{origin}/v1/merchant` for a bare origin. */
export function merchantEndpointUrl(registered: string): string {
  try {
    const url = new URL(registered);
    if (url.pathname === '' || url.pathname === '/') url.pathname = '/v1/merchant';
    return url.toString();
  } catch {
    return registered;
  }
}

// ---------- reading a Merchant document ----------

type Status = (typeof MENU_STATUSES)[number];
interface OdPrice {
  value: number;
  originalValue?: number;
  currency?: string;
}
interface OdItem {
  id: string;
  name: string;
  description?: string;
  externalCode?: string;
  status?: Status;
  image?: { URL: string };
}
/** The parts of components/schemas/Merchant the platform keeps. */
export interface OdMerchantDocument {
  id: string;
  status: Status;
  basicInfo: {
    name: string;
    document: string;
    description?: string;
    /** the Order's street address fields, with coordinates flat and an optional complement */
    address: Pick<
      DeliveryAddress,
      'country' | 'state' | 'city' | 'district' | 'street' | 'number' | 'postalCode'
    > & { complement?: string; latitude: number; longitude: number };
    contactEmails: string[];
    contactPhones: { commercialNumber: string; whatsappNumber?: string };
  };
  services: { serviceType: string; status: Status; menuId: string }[];
  menus: { id: string; name: string; categoryId: string[] }[];
  categories: {
    id: string;
    index: number;
    name: string;
    description?: string;
    status: Status;
    itemOfferId?: string[];
  }[];
  itemOffers: {
    id: string;
    itemId: string;
    index: number;
    status?: Status;
    price: OdPrice;
    optionGroupsId?: string[];
  }[];
  items: OdItem[];
  optionGroups?: {
    id: string;
    index: number;
    name: string;
    description?: string;
    status: Status;
    minPermitted: number;
    maxPermitted: number;
    options?: { id: string; itemId?: string; index?: number; status?: Status; price?: OdPrice }[];
  }[];
}

export interface MerchantReading {
  /** the store's fields (validated again by the platform's admin rules) */
  store: MerchantPatch;
  /** the store's single menu (validated again by the platform's menu rules) */
  menu: MenuInput;
  /** references the standard's schema cannot check, and what the platform cannot keep */
  issues: { path: string; message: string }[];
}

const worst = (...s: (Status | undefined)[]): Status =>
  s.includes('UNAVAILABLE') ? 'UNAVAILABLE' : 'AVAILABLE';

/**
 * A valid Merchant document -> the store's fields and its menu. The platform keeps one menu per
 * store: the menu the first service points to (else the first menu). An item offer becomes a menu
 * item (price, option groups) named after its item; an option is named after its item. Offers the
 * chosen menu's categories do not list are left out; broken references are issues. Prices are BRL.
 */
export function readMerchantDocument(doc: OdMerchantDocument): MerchantReading {
  const issues: MerchantReading['issues'] = [];
  const items = new Map(doc.items.map((i) => [i.id, i]));
  const offers = new Map(doc.itemOffers.map((o) => [o.id, o]));
  const categories = new Map(doc.categories.map((c) => [c.id, c]));
  const groups = new Map((doc.optionGroups ?? []).map((g) => [g.id, g]));
  const brl = (p: OdPrice | undefined, path: string) => {
    if (p?.currency !== undefined && p.currency !== 'BRL')
      issues.push({ path, message: `currency ${p.currency}: the platform sells in BRL only` });
    return { value: p?.value ?? 0, originalValue: p?.originalValue ?? null };
  };
  const wanted = doc.services[0]?.menuId;
  const menu = doc.menus.find((m) => m.id === wanted) ?? doc.menus[0];
  if (!menu) issues.push({ path: 'menus', message: 'the document has no menu' });

  const menuCategories = (menu?.categoryId ?? []).flatMap((id, i) => {
    const c = categories.get(id);
    if (!c) issues.push({ path: `menus[0].categoryId[${i}]`, message: `unknown category ${id}` });
    return c ? [c] : [];
  });
  const offerIds = new Set<string>();
  for (const c of menuCategories)
    for (const [i, id] of (c.itemOfferId ?? []).entries()) {
      if (offers.has(id)) offerIds.add(id);
      else
        issues.push({ path: `categories[${c.id}].itemOfferId[${i}]`, message: `unknown item offer ${id}` });
    }
  const groupIds = new Set<string>();
  const menuItems = [...offerIds].flatMap((id) => {
    const o = offers.get(id) as OdMerchantDocument['itemOffers'][number];
    const item = items.get(o.itemId);
    if (!item) {
      issues.push({ path: `itemOffers[${o.id}].itemId`, message: `unknown item ${o.itemId}` });
      return [];
    }
    for (const g of o.optionGroupsId ?? []) groupIds.add(g);
    return [
      {
        id: o.id,
        name: item.name,
        description: item.description ?? '',
        externalCode: item.externalCode ?? '',
        status: worst(o.status, item.status),
        image: item.image?.URL ?? null,
        price: brl(o.price, `itemOffers[${o.id}].price`),
        optionGroupIds: o.optionGroupsId ?? [],
      },
    ];
  });
  const optionGroups = [...groupIds].flatMap((id) => {
    const g = groups.get(id);
    if (!g) {
      issues.push({ path: `itemOffers.optionGroupsId`, message: `unknown option group ${id}` });
      return [];
    }
    return [
      {
        id: g.id,
        name: g.name,
        description: g.description ?? null,
        index: g.index,
        status: g.status,
        minPermitted: g.minPermitted,
        maxPermitted: g.maxPermitted,
        options: (g.options ?? []).flatMap((o, i) => {
          const item = o.itemId === undefined ? undefined : items.get(o.itemId);
          if (!item) {
            issues.push({
              path: `optionGroups[${g.id}].options[${i}].itemId`,
              message:
                o.itemId === undefined ? 'an option needs its itemId (its name)' : `unknown item ${o.itemId}`,
            });
            return [];
          }
          return [
            {
              id: o.id,
              name: item.name,
              externalCode: item.externalCode ?? '',
              index: o.index ?? i,
              status: worst(o.status, item.status),
              price: brl(o.price, `optionGroups[${g.id}].options[${i}].price`),
            },
          ];
        }),
      },
    ];
  });

  const b = doc.basicInfo;
  const services = SERVICE_TYPES.flatMap((type) => {
    const s = doc.services.find((x) => x.serviceType === type);
    return s ? [{ serviceType: type, status: s.status }] : [];
  });
  const store: MerchantPatch = {
    name: b.name,
    description: b.description ?? '',
    document: b.document,
    status: doc.status,
    contactEmails: b.contactEmails,
    contactPhones: [b.contactPhones.commercialNumber, b.contactPhones.whatsappNumber].filter(
      (p): p is string => Boolean(p),
    ),
    address: { ...b.address, complement: b.address.complement ?? null },
    services,
  };
  return {
    store,
    menu: {
      ...(menu ? { id: menu.id, name: menu.name } : {}),
      categories: menuCategories.map((c) => ({
        id: c.id,
        name: c.name,
        description: c.description ?? '',
        index: c.index,
        status: c.status,
        itemOfferIds: (c.itemOfferId ?? []).filter(
          (id) => offers.has(id) && items.has(offers.get(id)?.itemId ?? ''),
        ),
      })),
      items: menuItems,
      optionGroups,
    },
    issues,
  };
}
