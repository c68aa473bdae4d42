import {
  canReach,
  FEED_OPS,
  type IntegrationHealth,
  ORDER_OPS,
  type PanelOverview,
  WEBHOOK_OPS,
} from '@od/contracts';
import { HttpException } from '@od/errors';
import { z } from 'zod';
import type { PanelRoutes } from '../context.ts';
import { requireStore } from '../http/guards.ts';
import { ok, relay, upstream } from '../upstream.ts';
import { storeCredentials } from './credentials.ts';

/**
 * The store's landing screen (OWNER and STAFF): today's orders and sales and open orders by
 * situation (orders' `admin.storeSummary`); for a role reaching credentials also each credential's
 * integration health (auth's list, feed's `admin.storeFeedHealth`, webhook's
 * `admin.storeWebhookHealth`: one query each, called at once).
 */
export const overviewRoutes: PanelRoutes = (app, ctx) => {
  app.get(
    '/panel/api/stores/:merchantId/overview',
    {
      schema: {
        params: z.object({ merchantId: z.string() }),
        querystring: z.object({ since: z.iso.datetime({ offset: true }) }),
      },
      onRequest: requireStore(ctx, 'orders'),
    },
    async (request, reply) => {
      const merchantId = request.store!.merchantId;
      const params = { merchantId };
      const withHealth = canReach(request.store!.role, 'credentials');
      const [summary, creds, feed, webhook] = await Promise.all([
        upstream(ctx, request, ORDER_OPS.adminStoreSummary, {
          params,
          query: { since: request.query.since },
        }),
        withHealth ? storeCredentials(ctx, request, merchantId) : null,
        withHealth ? upstream(ctx, request, FEED_OPS.adminStoreHealth, { params }) : null,
        withHealth ? upstream(ctx, request, WEBHOOK_OPS.storeHealth, { params }) : null,
      ]);
      if (!ok(summary)) return relay(reply, summary);
      if (!creds || !feed || !webhook) return summary.body;
      for (const r of [feed, webhook])
        if (!ok(r)) throw new HttpException({ status: r.status, body: r.body });
      const feedOf = new Map(feed.body.items.map((x) => [x.clientId, x]));
      const hookOf = new Map(webhook.body.items.map((x) => [x.clientId, x]));
      const integrations = creds
        .filter((c) => c.status !== 'REVOKED')
        .map((c): IntegrationHealth => {
          const f = feedOf.get(c.clientId);
          const w = hookOf.get(c.clientId);
          return {
            clientId: c.clientId,
            name: c.name,
            status: c.status,
            deliveryMode: c.deliveryMode,
            lastPollAt: f?.lastPollAt ?? null,
            lastDeliveredAt: w?.lastDeliveredAt ?? null,
            pending: f?.pending ?? 0,
            webhookPending: w?.pending ?? 0,
            webhookDeactivated: w?.deactivated ?? false,
            consecutiveFailures: w?.consecutiveFailures ?? 0,
          };
        });
      return { ...summary.body, integrations } satisfies PanelOverview;
    },
  );
};
