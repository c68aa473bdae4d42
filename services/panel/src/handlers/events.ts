import {
  type AdminFeedPage,
  FEED_OPS,
  ORDER_OPS,
  type PanelEventsPage,
  WEBHOOK_OPS,
  type WebhookDeliveryStatus,
  type WebhookDeliveryView,
} from '@od/contracts';
import { HttpException } from '@od/errors';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { PanelContext, PanelRoutes } from '../context.ts';
import { requireStore } from '../http/guards.ts';
import { ok, type Upstream, upstream } from '../upstream.ts';
import { credentialParams, ownCredential } from './credentials.ts';

/** A page of the events screen: at most this many events (one order read per distinct order). */
export const EVENTS_PAGE_MAX = 50;

const query = z.object({
  limit: z.coerce.number().int().min(1).max(EVENTS_PAGE_MAX).optional(),
  /** the `next` of the previous page */
  page: z
    .string()
    .regex(/^[bc]:[0-9a-f-]{1,40}$/)
    .optional(),
  state: z.enum(['all', 'pending', 'acknowledged']).optional(),
  /** `failed`: only events whose webhook delivery failed (every attempt of its last round) */
  delivery: z.enum(['failed']).optional(),
  eventType: z
    .string()
    .regex(/^[A-Z_]{1,50}$/)
    .optional(),
});

const must = <T>(r: Upstream<T>): T => {
  if (!ok(r)) throw new HttpException({ status: r.status, body: r.body });
  return r.body;
};

/** The board's order number of each order (orders' admin view, read at once); the id when unreadable. */
async function displayIds(ctx: PanelContext, request: FastifyRequest, orderIds: string[]) {
  const ids = [...new Set(orderIds)];
  const reads = await Promise.all(
    ids.map((orderId) =>
      upstream(ctx, request, ORDER_OPS.adminGet, { params: { orderId } }).catch(() => null),
    ),
  );
  return new Map(ids.map((id, i) => [id, reads[i]?.status === 200 ? reads[i]?.body.displayId : undefined]));
}

/**
 * Events of a credential (OWNER only), newest first, every filter applied by the owning service so
 * each page is full: the feed's entries (type, ack state) with, beside each, its webhook delivery
 * (status, attempts, last answer) and the order's board number. `delivery=failed` lists the
 * webhook's failed deliveries instead (type filter too), with their feed entries.
 */
export const eventRoutes: PanelRoutes = (app, ctx) => {
  app.get(
    '/panel/api/stores/:merchantId/credentials/:clientId/events',
    {
      schema: { params: credentialParams, querystring: query },
      onRequest: requireStore(ctx, 'credentials'),
    },
    async (request): Promise<PanelEventsPage> => {
      const { clientId } = request.params;
      await ownCredential(ctx, request, request.store!.merchantId, clientId);
      const q = request.query;
      const limit = q.limit ?? 20;
      const params = { clientId };
      const type = q.eventType ? { eventType: q.eventType } : {};
      let feed: AdminFeedPage;
      let deliveries: WebhookDeliveryView[];
      let next: string | null;
      if (q.delivery === 'failed') {
        const failed = must(
          await upstream(ctx, request, WEBHOOK_OPS.deliveries, {
            params,
            query: {
              status: 'WEBHOOK_FAILED' satisfies WebhookDeliveryStatus,
              limit: String(limit),
              ...type,
              ...(q.page?.startsWith('c:') ? { cursor: q.page.slice(2) } : {}),
            },
          }),
        );
        deliveries = failed.items;
        next = failed.nextCursor ? `c:${failed.nextCursor}` : null;
        feed = deliveries.length
          ? must(
              await upstream(ctx, request, FEED_OPS.adminEvents, {
                params,
                query: { eventIds: deliveries.map((d) => d.eventId).join(','), limit: String(limit) },
              }),
            )
          : { clientId, status: '', items: [], nextBefore: null, pending: 0 };
        const order = new Map(deliveries.map((d, i) => [d.eventId, i]));
        feed.items.sort((a, b) => (order.get(a.eventId) ?? 0) - (order.get(b.eventId) ?? 0));
      } else {
        feed = must(
          await upstream(ctx, request, FEED_OPS.adminEvents, {
            params,
            query: {
              limit: String(limit),
              state: q.state ?? 'all',
              ...type,
              ...(q.page?.startsWith('b:') ? { before: q.page.slice(2) } : {}),
            },
          }),
        );
        next = feed.nextBefore ? `b:${feed.nextBefore}` : null;
        deliveries = feed.items.length
          ? must(
              await upstream(ctx, request, WEBHOOK_OPS.deliveries, {
                params,
                query: { eventIds: feed.items.map((e) => e.eventId).join(','), limit: String(limit) },
              }),
            ).items
          : [];
      }
      const byEvent = new Map(deliveries.map((d) => [d.eventId, d]));
      const numbers = await displayIds(
        ctx,
        request,
        feed.items.map((e) => e.orderId),
      );
      return {
        items: feed.items.map((e) => ({
          ...e,
          displayId: numbers.get(e.orderId) ?? null,
          delivery: byEvent.get(e.eventId) ?? null,
        })),
        next,
        ...(q.delivery === 'failed' ? {} : { pending: feed.pending }),
      };
    },
  );
};
