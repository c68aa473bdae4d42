import { z } from 'zod';
import { EVENT_TYPES, eventEnvelopeSchema } from '../events.ts';
import {
  type AdminFeedPage,
  ackBodySchema,
  ackResponseSchema,
  pollQuerySchema,
  type StoreFeedHealth,
} from '../feed.ts';
import { eventHistoryQuerySchema, eventHistorySchema } from '../history.ts';
import { defineOps } from '../op.ts';
import { ADMIN_AND_PANEL } from '../rpc.ts';

/** Feed service RPC operations. */
export const FEED_OPS = defineOps('feed', {
  /**
   * query { limit, keep? } -> 200 raw JSON array of envelopes (bytes built by PostgreSQL). `keep`:
   * the event types the caller receives; the page's pending events of other types are acknowledged
   * for it and left out (the Open Delivery profile: its `eventType` filter and the types the
   * standard does not have).
   */
  poll: {
    name: 'events.poll',
    callers: ['credential'],
    scope: 'orders:read',
    query: pollQuerySchema.extend({ keep: z.array(z.enum(EVENT_TYPES)).max(EVENT_TYPES.length).optional() }),
    /** typing only: the reply is PostgreSQL's bytes, forwarded untouched */
    reply: z.array(eventEnvelopeSchema),
  },
  /** GET /v1/events (extension): query EventHistoryQuery -> 200 EventHistory (history.ts) | 400; reads only */
  history: {
    name: 'events.history',
    callers: ['credential'],
    scope: 'orders:read',
    query: eventHistoryQuerySchema,
    reply: eventHistorySchema,
  },
  /** body [{ id }] (at most ACK_MAX_ENTRIES) -> 202 { acknowledged } */
  ack: {
    name: 'events.ack',
    callers: ['credential'],
    scope: 'orders:read',
    body: ackBodySchema,
    reply: ackResponseSchema,
  },
  /**
   * params { clientId }; query { limit?, before?, state?, eventType?, eventIds? (comma separated,
   * at most 200) } -> 200 AdminFeedPage | 404
   */
  adminEvents: {
    name: 'admin.credentialEvents',
    callers: ADMIN_AND_PANEL,
    area: 'credentials',
    params: z.object({ clientId: z.string() }),
    query: z.record(z.string(), z.unknown()).optional(),
    reply: z.custom<AdminFeedPage>(),
  },
  /** the panel's overview: -> 200 { items: StoreFeedHealth[] } (every credential of the store); one query */
  adminStoreHealth: {
    name: 'admin.storeFeedHealth',
    callers: ADMIN_AND_PANEL,
    area: 'credentials',
    params: z.object({ merchantId: z.string() }),
    reply: z.custom<{ items: StoreFeedHealth[] }>(),
  },
});
