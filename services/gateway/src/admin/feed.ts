import { ADMIN_FEED_STATES, CLIENT_ID_PATTERN, FEED_OPS } from '@od/contracts';
import { z } from 'zod';
import type { RouteModule } from '../context.ts';
import { relayRoutes } from '../forward.ts';

/**
 * Admin routes served by the feed service.
 * GET /admin/v1/credentials/{clientId}/events: the credential's feed with ack state, newest first
 * (feed position), `limit` 1..500 (default 50), `before` = `nextBefore` of the previous page,
 * `state` all | pending | acknowledged. 404 when the feed does not know the credential.
 */
export const feedAdminRoutes: RouteModule = (app, ctx) => {
  relayRoutes(app, ctx).get(
    '/admin/v1/credentials/:clientId/events',
    {
      params: z.object({ clientId: z.string().regex(CLIENT_ID_PATTERN) }),
      querystring: z.object({
        limit: z.coerce.number().int().min(1).max(500).optional(),
        before: z.coerce.number().int().min(1).optional(),
        state: z.enum(ADMIN_FEED_STATES).optional(),
      }),
    },
    FEED_OPS.adminEvents,
  );
};
