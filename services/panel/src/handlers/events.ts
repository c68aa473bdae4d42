import { ADMIN_FEED_STATES, FEED_OPS } from '@od/contracts';
import { z } from 'zod';
import type { PanelRoutes } from '../context.ts';
import { requireStore } from '../http/guards.ts';
import { relay, upstream } from '../upstream.ts';
import { credentialParams, ownCredential } from './credentials.ts';

/** Events of a credential (OWNER only): the feed's admin page, newest first, `before` paging. */
export const eventRoutes: PanelRoutes = (app, ctx) => {
  app.get(
    '/panel/api/stores/:merchantId/credentials/:clientId/events',
    {
      schema: {
        params: credentialParams,
        querystring: z.object({
          limit: z.coerce.number().int().min(1).max(200).optional(),
          before: z.coerce.number().int().min(1).optional(),
          state: z.enum(ADMIN_FEED_STATES).optional(),
          eventType: z.string().max(50).optional(),
        }),
      },
      onRequest: requireStore(ctx, 'credentials'),
    },
    async (request, reply) => {
      const { clientId } = request.params;
      await ownCredential(ctx, request, request.store!.merchantId, clientId);
      const { eventType, ...query } = request.query;
      const r = await upstream<{ items?: { eventType?: string }[] }>(ctx, request, FEED_OPS.adminEvents, {
        params: { clientId },
        query,
      });
      // the type filter applies to the page (the feed pages by position, not by type)
      if (eventType && r.body?.items) r.body.items = r.body.items.filter((e) => e.eventType === eventType);
      return relay(reply, r);
    },
  );
};
