import { z } from 'zod';

/**
 * Every input limit of the public and admin APIs, in one table (services/gateway/README.md lists
 * them). The zod schemas of this package use these numbers; the gateway enforces them before any
 * service is called, and they appear in the OpenAPI document as maxLength / maxItems.
 *
 * Why these numbers: every reply must cross NATS (1 MiB max payload) whole. A served menu is
 * bounded by its rendered size; an order by counts x field lengths (see ORDER_* below: the largest
 * accepted order renders below 1 MiB even with 3-byte characters in every field); a polling page by
 * bytes (POLL_PAGE_MAX_BYTES in feed.ts). String lengths count UTF-16 code units, as zod and
 * JavaScript do.
 */
export const TEXT = {
  /** ids chosen by the client: menu categories, items, option groups, options; courier and route ids */
  id: 100,
  /** names: store, menu, category, item, option, group, variation, customer, courier, fee, credential */
  name: 200,
  /** external codes, EAN, discount codes, vehicle types, card brands */
  code: 100,
  /** free text shown to people: store, item and category descriptions */
  description: 2000,
  /** option group description */
  groupDescription: 1000,
  /** item special instructions, order notes (extraInfo) */
  note: 1000,
  /** cancellation reason (SPEC Limits), courier stop reason */
  reason: 500,
  phone: 30,
  email: 254,
  /** CPF/CNPJ or another document number */
  document: 30,
  /** image, tracking and webhook URLs */
  url: 2048,
  licensePlate: 20,
  postalCode: 20,
  /** house number of an address */
  addressNumber: 50,
  /** street, complement, reference and the like */
  addressLine: 300,
  formattedAddress: 500,
  /** payment methodInfo */
  methodInfo: 200,
  /** display id of an order */
  displayId: 40,
  /** query-string cursors and filters of the admin API */
  query: 200,
} as const;

export const COUNT = {
  /** items of one order */
  orderItems: 100,
  /** options of one order item */
  itemOptions: 30,
  /** options of one order, all items together */
  orderOptions: 200,
  orderFees: 20,
  orderDiscounts: 20,
  sponsorships: 10,
  paymentMethods: 10,
  /** menu: categories, items, option groups (declared), options per group, variations per item */
  menuCategories: 500,
  menuItems: 3000,
  menuOptionGroups: 3000,
  groupOptions: 200,
  itemVariations: 20,
  /** references: option groups of an item, items of a category */
  itemGroupRefs: 50,
  categoryItemRefs: 3000,
  contactEmails: 20,
  contactPhones: 20,
} as const;

export const BYTES = {
  /** public listener body (business routes); the token endpoint has its own 4096 (SPEC) */
  publicBody: 64 * 1024,
  /** admin listener body, except the menu */
  adminBody: 256 * 1024,
  /** admin `PUT .../menu` body */
  menuBody: 1000 * 1024,
  /**
   * the menu as served (`GET /v1/merchant/{id}/menus`, and the PUT's answer): JSON bytes of the
   * rendered menu. Below NATS's 1 MiB max payload with room for the RPC headers.
   */
  servedMenu: 900 * 1024,
  /** a payment method's free-form `transaction` object, as JSON */
  paymentTransaction: 4096,
} as const;

/**
 * Characters refused in every string of every request (path and query by the gateway; in a body
 * each string a schema keeps, by `text()`, and every key and string of a free-form part, by
 * `refuseControlCharacters`): U+0000
 * (PostgreSQL cannot store it in text or jsonb) and the other C0 controls and DEL except tab, line
 * feed and carriage return (no client can show them; they only hide data).
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: the point of this pattern
export const CONTROL_CHARACTERS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/;

export const CONTROL_CHARACTER_MESSAGE = 'caractere de controle não permitido';

/** A string of at most `max` characters without refused control characters. */
export const text = (max: number, message = `texto com mais de ${max} caracteres`) =>
  z
    .string()
    .max(max, message)
    .refine((s) => !CONTROL_CHARACTERS.test(s), CONTROL_CHARACTER_MESSAGE);

type JsonPath = (string | number)[];

/**
 * Path of the first string (object key or value) holding a refused control character, anywhere in
 * a parsed JSON value, a query object or a params object; undefined when there is none.
 * Iterative: a deeply nested body cannot exhaust the stack.
 */
export function findControlCharacter(value: unknown): JsonPath | undefined {
  if (cleanFlat(value)) return undefined;
  const stack: [unknown, JsonPath][] = [[value, []]];
  while (stack.length > 0) {
    const [v, path] = stack.pop() as [unknown, JsonPath];
    if (typeof v === 'string') {
      if (CONTROL_CHARACTERS.test(v)) return path;
    } else if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push([v[i], [...path, i]]);
    } else if (v !== null && typeof v === 'object') {
      for (const [k, child] of Object.entries(v)) {
        if (CONTROL_CHARACTERS.test(k)) return [...path, k];
        stack.push([child, [...path, k]]);
      }
    }
  }
  return undefined;
}

/**
 * true for an absent value or a flat object whose keys and string values hold no refused control
 * character: the common case of params and query (every request of the gateway), answered without
 * the walk's stack and paths. false = the walk decides.
 */
function cleanFlat(value: unknown): boolean {
  if (value === undefined || value === null) return true;
  if (typeof value !== 'object' || Array.isArray(value)) return false;
  for (const k in value) {
    const v = (value as Record<string, unknown>)[k];
    if (typeof v !== 'string' || CONTROL_CHARACTERS.test(v) || CONTROL_CHARACTERS.test(k)) return false;
  }
  return true;
}

/** A refinement: no refused control character in any key or string of the value (keys a schema strips included). */
export function refuseControlCharacters(value: unknown, ctx: z.RefinementCtx): void {
  const path = findControlCharacter(value);
  if (path) ctx.addIssue({ code: 'custom', path, message: CONTROL_CHARACTER_MESSAGE });
}

/** UTF-8 bytes of a value's JSON text. */
const utf8 = new TextEncoder();
export const jsonBytes = (v: unknown): number => utf8.encode(JSON.stringify(v) ?? '').length;
