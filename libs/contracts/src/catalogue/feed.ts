import { z } from 'zod';
import { pollQuerySchema } from '../feed.ts';
import { defineOps } from '../op.ts';
import { ADMIN_AND_PANEL } from '../rpc.ts';

/** Feed service RPC operations. */
export const FEED_OPS = defineOps('feed', {
  /** query { limit } -> 200 raw JSON array of envelopes (bytes built by PostgreSQL) */
  poll: { name: 'events.poll', callers: ['credential'], scope: 'orders:read', query: pollQuerySchema },
  /** body [{ id }] (validated by the handler, SPEC messages) -> 202 { acknowledged } */
  ack: { name: 'events.ack', callers: ['credential'], scope: 'orders:read', body: z.unknown() },
  /** params { clientId }; query { limit?, before?, state? } -> 200 AdminFeedPage | 404 */
  adminEvents: {
    name: 'admin.credentialEvents',
    callers: ADMIN_AND_PANEL,
    area: 'credentials',
    params: z.object({ clientId: z.string() }),
    query: z.record(z.string(), z.unknown()).optional(),
  },
});
