import { z } from 'zod';
import { GUID_PATTERN } from './ids.ts';

/** SPEC Limits: polling `limit` default 100, maximum 200. */
export const POLL_LIMIT_DEFAULT = 100;
export const POLL_LIMIT_MAX = 200;
/**
 * Bytes of one polling page (the JSON array): a page stops early rather than grow past it (the
 * client polls again). Well under NATS's 1 MiB max payload, which the reply must cross.
 */
export const POLL_PAGE_MAX_BYTES = 512 * 1024;
/** Entries accepted by one acknowledgment call. */
export const ACK_MAX_ENTRIES = 1000;
/** SPEC: acknowledged events are deleted after 30 days. */
export const FEED_RETENTION_DAYS = 30;

/** Query of `GET /v1/events:polling`: `limit` an integer 1..200, default 100. */
export const pollQuerySchema = z.object({
  limit: z.coerce
    .number({ error: 'limit deve ser um número inteiro.' })
    .int('limit deve ser um número inteiro.')
    .min(1, 'limit deve ser no mínimo 1.')
    .max(POLL_LIMIT_MAX, `limit deve ser no máximo ${POLL_LIMIT_MAX}.`)
    .optional()
    .describe(
      `Maximum number of events returned (default ${POLL_LIMIT_DEFAULT}, maximum ${POLL_LIMIT_MAX}).`,
    ),
});

/** Body of `POST /v1/events/acknowledgment`: array of `{ id: <eventId> }`. */
export const ackBodySchema = z
  .array(
    z.object({
      id: z
        .string({ error: 'id é obrigatório.' })
        .regex(GUID_PATTERN, 'id deve ser um GUID.')
        .describe('eventId of the event being acknowledged'),
    }),
    { error: 'O corpo deve ser uma lista de { id }.' },
  )
  .max(ACK_MAX_ENTRIES, `No máximo ${ACK_MAX_ENTRIES} eventos por chamada.`);

export const ackResponseSchema = z
  .object({
    acknowledged: z
      .number()
      .int()
      .describe(
        'entries this call moved to acknowledged for this credential (unknown or repeated ids count 0)',
      ),
  })
  .meta({ id: 'Acknowledgment', 'x-extension': true, example: { acknowledged: 2 } });

/** Admin view of one feed entry (GET /admin/v1/credentials/{clientId}/events). */
export interface AdminFeedEntry {
  /** position in the credential's feed; the pagination cursor */
  seq: number;
  eventId: string;
  eventType: string;
  orderId: string;
  createdAt: string;
  addedAt: string;
  acknowledged: boolean;
  acknowledgedAt: string | null;
  envelope: unknown;
}

export interface AdminFeedPage {
  clientId: string;
  /** the credential's status as the feed knows it (REVOKED feeds are emptied) */
  status: string;
  /** newest first (by feed position) */
  items: AdminFeedEntry[];
  /** pass as `before` to get the next (older) page; null on the last page */
  nextBefore: number | null;
  pending: number;
}

export { ADMIN_FEED_STATES } from './codes.ts';

/** A credential's feed health for the panel's overview. */
export interface StoreFeedHealth {
  clientId: string;
  pending: number;
  /** the credential's last poll (written at most once a minute), null when never */
  lastPollAt: string | null;
}
