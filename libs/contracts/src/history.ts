import { z } from 'zod';
import { eventEnvelopeSchema } from './events.ts';
import { FEED_RETENTION_DAYS } from './feed.ts';
import { GUID_PATTERN, isGuid } from './ids.ts';
import { ORDER_TYPES, SITUATIONS } from './order.ts';

/**
 * "Rebuild the day" (extensions, scope orders:read): `GET /v1/orders` (order summaries, newest
 * first) and `GET /v1/events` (the credential's envelopes with their ack time, oldest first), both
 * keyset-paged by an opaque cursor and bounded by a date range. Pure: the gateway validates the
 * query with these schemas, and the serving service checks it again with the same functions.
 */
export const HISTORY_LIMIT_DEFAULT = 50;
export const HISTORY_LIMIT_MAX = 100;
/** widest `createdFrom`..`createdTo` range of one query */
export const HISTORY_RANGE_MAX_DAYS = 31;
/** `GET /v1/events` reaches back at most this far: acknowledged events are deleted after it */
export const EVENT_HISTORY_DAYS = FEED_RETENTION_DAYS;
/** without `createdFrom`: this long before `createdTo` */
export const HISTORY_DEFAULT_SPAN_HOURS = 24;
const DAY_MS = 86_400_000;
const CURSOR_MAX = 120;

/** Situations a credential can see (an unpaid order does not exist for integrators). */
export const VISIBLE_SITUATIONS = SITUATIONS.filter((s) => s !== 'PENDING_PAYMENT');

/** A position in a listing: the last row's creation time and id (the tie-breaker). */
export interface PageCursor {
  at: string;
  id: string;
}

/** `base64url("v1|<ISO time>|<id>")`: opaque to clients, stable for the server. */
export function encodeCursor(c: PageCursor): string {
  // ASCII only: btoa, also in browsers (the panel reads this package too)
  return btoa(`v1|${new Date(c.at).toISOString()}|${c.id.toLowerCase()}`)
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
}

const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** The cursor, or undefined for anything this server did not produce (tampered, truncated, foreign). */
export function decodeCursor(raw: unknown): PageCursor | undefined {
  if (typeof raw !== 'string' || raw.length === 0 || raw.length > CURSOR_MAX || !/^[A-Za-z0-9_-]+$/.test(raw))
    return undefined;
  let text: string;
  try {
    text = atob(raw.replace(/-/g, '+').replace(/_/g, '/'));
  } catch {
    return undefined;
  }
  const parts = text.split('|');
  if (parts.length !== 3 || parts[0] !== 'v1') return undefined;
  const [, at, id] = parts;
  if (!ISO_MS.test(at) || Number.isNaN(Date.parse(at)) || new Date(at).toISOString() !== at) return undefined;
  if (!isGuid(id) || id !== id.toLowerCase()) return undefined;
  // re-encoding must give the same text: no alternative spelling of one position
  return encodeCursor({ at, id }) === raw ? { at, id } : undefined;
}

export interface HistoryRange {
  from: Date;
  to: Date;
}

/**
 * The range of a query: `createdFrom` inclusive, `createdTo` exclusive; `createdTo` defaults to now,
 * `createdFrom` to 24 h before `createdTo`. Errors by field (pt-BR, ValidationProblemDetails).
 */
export function resolveRange(
  q: { createdFrom?: string; createdTo?: string },
  now: Date,
  opts: { oldestDays?: number } = {},
): HistoryRange | { errors: Record<string, string[]> } {
  const to = q.createdTo === undefined ? now : new Date(q.createdTo);
  const from =
    q.createdFrom === undefined
      ? new Date(to.getTime() - HISTORY_DEFAULT_SPAN_HOURS * 3_600_000)
      : new Date(q.createdFrom);
  if (Number.isNaN(to.getTime())) return { errors: { createdTo: ['createdTo deve ser uma data ISO 8601.'] } };
  if (Number.isNaN(from.getTime()))
    return { errors: { createdFrom: ['createdFrom deve ser uma data ISO 8601.'] } };
  if (from.getTime() >= to.getTime())
    return { errors: { createdFrom: ['createdFrom deve ser anterior a createdTo.'] } };
  if (to.getTime() - from.getTime() > HISTORY_RANGE_MAX_DAYS * DAY_MS)
    return {
      errors: { createdFrom: [`O intervalo deve ter no máximo ${HISTORY_RANGE_MAX_DAYS} dias.`] },
    };
  if (opts.oldestDays !== undefined && from.getTime() < now.getTime() - opts.oldestDays * DAY_MS)
    return {
      errors: {
        createdFrom: [`createdFrom deve estar nos últimos ${opts.oldestDays} dias (retenção dos eventos).`],
      },
    };
  return { from, to };
}

const isoDate = (name: string) =>
  z.iso
    .datetime({
      offset: true,
      error: `${name} deve ser uma data ISO 8601 com fuso (ex.: 2026-11-24T00:00:00Z).`,
    })
    .optional();
const limit = z.coerce
  .number({ error: 'limit deve ser um número inteiro.' })
  .int('limit deve ser um número inteiro.')
  .min(1, 'limit deve ser no mínimo 1.')
  .max(HISTORY_LIMIT_MAX, `limit deve ser no máximo ${HISTORY_LIMIT_MAX}.`)
  .optional()
  .describe(`Page size (default ${HISTORY_LIMIT_DEFAULT}, maximum ${HISTORY_LIMIT_MAX}).`);
const cursor = z
  .string()
  .max(CURSOR_MAX, 'cursor inválido.')
  .refine((c) => decodeCursor(c) !== undefined, 'cursor inválido.')
  .optional()
  .describe('`nextCursor` of the previous page, as received (opaque). Keep the other parameters the same.');

const rangeFields = {
  createdFrom: isoDate('createdFrom').describe(
    `Start of the range, inclusive (ISO 8601 with a zone). Default: ${HISTORY_DEFAULT_SPAN_HOURS} h before createdTo.`,
  ),
  createdTo: isoDate('createdTo').describe(
    'End of the range, exclusive (ISO 8601 with a zone). Default: now.',
  ),
};

function withRange<T extends z.ZodObject>(schema: T, oldestDays?: number) {
  return schema.superRefine((q, ctx) => {
    const r = resolveRange(q as { createdFrom?: string; createdTo?: string }, new Date(), { oldestDays });
    if (!('errors' in r)) return;
    for (const [field, messages] of Object.entries(r.errors))
      for (const message of messages) ctx.addIssue({ code: 'custom', path: [field], message });
  });
}

/** Query of `GET /v1/orders` (extension). */
export const orderListQuerySchema = withRange(
  z.object({
    ...rangeFields,
    situation: z
      .enum(VISIBLE_SITUATIONS as [string, ...string[]], { error: 'situation inválida.' })
      .optional()
      .describe('Only orders in this situation now.'),
    limit,
    cursor,
  }),
);
export type OrderListQuery = z.input<typeof orderListQuerySchema>;

/** Query of `GET /v1/events` (extension). */
export const eventHistoryQuerySchema = withRange(
  z.object({ ...rangeFields, limit, cursor }),
  EVENT_HISTORY_DAYS,
);
export type EventHistoryQuery = z.input<typeof eventHistoryQuerySchema>;

const money = z.object({ value: z.number(), currency: z.string() });

/** One order of `GET /v1/orders`. */
export const orderSummarySchema = z.object({
  id: z.string().regex(GUID_PATTERN),
  displayId: z.string(),
  type: z.enum(ORDER_TYPES),
  situation: z.enum(SITUATIONS),
  createdAt: z.string().describe('ISO 8601 UTC'),
  lastUpdate: z.string().describe('ISO 8601 UTC: the last change of the order'),
  total: z.object({ items: money, otherFees: money, discount: money, orderAmount: money }),
});
export type OrderSummary = z.infer<typeof orderSummarySchema>;

export const orderListSchema = z.object({
  orders: z.array(orderSummarySchema).describe('newest first'),
  nextCursor: z.string().nullable().describe('null on the last page'),
});
export type OrderList = z.infer<typeof orderListSchema>;

/** One event of `GET /v1/events`: the envelope as polled, and when this credential acknowledged it. */
export const eventHistoryEntrySchema = eventEnvelopeSchema.extend({
  acknowledgedAt: z.string().nullable().describe('ISO 8601 UTC; null while pending'),
});
export const eventHistorySchema = z.object({
  events: z.array(eventHistoryEntrySchema).describe('oldest first'),
  nextCursor: z.string().nullable().describe('null on the last page'),
});
export type EventHistory = z.infer<typeof eventHistorySchema>;

/**
 * A page from `limit + 1` rows fetched in page order: the first `limit`, and the cursor of the last
 * of them when a further row exists. `j` of a row is its element as JSON text (built by SQL).
 */
export function pageBody<R extends { at: string; id: string; j: string }>(
  key: 'orders' | 'events',
  rows: R[],
  limit: number,
): string {
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  const next = rows.length > limit && last ? encodeCursor(last) : null;
  return `{"${key}":[${page.map((r) => r.j).join(',')}],"nextCursor":${JSON.stringify(next)}}`;
}

/** The range, cursor and limit of a query the serving service received (already schema-checked). */
export function historyPosition(
  q: { createdFrom?: string; createdTo?: string; cursor?: string; limit?: number },
  now: Date,
  oldestDays?: number,
): { range: HistoryRange; after?: PageCursor; limit: number } | { errors: Record<string, string[]> } {
  const range = resolveRange(q, now, { oldestDays });
  if ('errors' in range) return range;
  const after = q.cursor === undefined ? undefined : decodeCursor(q.cursor);
  if (q.cursor !== undefined && !after) return { errors: { cursor: ['cursor inválido.'] } };
  return { range, after, limit: q.limit ?? HISTORY_LIMIT_DEFAULT };
}
