import {
  EVENT_HISTORY_DAYS,
  type EventHistoryQuery,
  eventHistoryQuerySchema,
  eventHistorySchema,
  FEED_OPS,
  HISTORY_LIMIT_DEFAULT,
  HISTORY_LIMIT_MAX,
  HISTORY_RANGE_MAX_DAYS,
  ORDER_OPS,
  type OrderListQuery,
  orderListQuerySchema,
  orderListSchema,
} from '@od/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { bearer } from '../auth/bearer.ts';
import type { RouteModule } from '../context.ts';
import { forward } from '../forward.ts';
import { json, responses } from '../http/responses.ts';

const paging =
  `Pages of \`limit\` (default ${HISTORY_LIMIT_DEFAULT}, maximum ${HISTORY_LIMIT_MAX}); pass \`nextCursor\` ` +
  'back as `cursor` (same other parameters) for the next page; it is null on the last. The range is ' +
  `[createdFrom, createdTo), at most ${HISTORY_RANGE_MAX_DAYS} days. A bad range or cursor answers 400.`;

/**
 * "Rebuild the day" (extensions, scope orders:read): the store's orders and the credential's events
 * in a date range, for a point of sale that lost its data. Read only.
 */
export const historyRoutes: RouteModule = (app, ctx) => {
  // the reply is sent by `forward` (service bytes untouched), so the handlers resolve to nothing
  const listOrders = async (request: FastifyRequest, reply: FastifyReply) => {
    await forward(ctx, request, reply, ORDER_OPS.list, {
      query: {
        ...(request.query as OrderListQuery),
        // the credential's own flag, as the feed's recipient rule reads it
        includeMarketplaceOrders:
          ctx.credentials.get(request.auth?.clientId ?? '')?.includeMarketplaceOrders === true,
      },
    });
  };
  const listEvents = async (request: FastifyRequest, reply: FastifyReply) => {
    await forward(ctx, request, reply, FEED_OPS.history, { query: request.query as EventHistoryQuery });
  };
  app.get(
    '/v1/orders',
    {
      schema: {
        querystring: orderListQuerySchema,
        operationId: 'listOrders',
        'x-extension': true,
        tags: ['orders'],
        summary: "Extension: the store's orders in a date range, newest first (scope orders:read)",
        description:
          "Extension (not in Open Delivery 1.4.0). Order summaries of the credential's store created in " +
          'the range (marketplace orders only when the credential includes them; unpaid orders never). ' +
          paging,
        security: [{ bearer: [] }],
        response: {
          200: json('Order summaries of the range, newest first, and the next cursor', orderListSchema),
          400: responses.validation,
        },
      },
      onRequest: bearer(ctx, 'orders:read'),
    },
    listOrders,
  );
  app.get(
    '/v1/events',
    {
      schema: {
        querystring: eventHistoryQuerySchema,
        operationId: 'eventHistory',
        'x-extension': true,
        tags: ['events'],
        summary: "Extension: the credential's events in a date range, oldest first (scope orders:read)",
        description:
          'Extension (not in Open Delivery 1.4.0). The envelopes this credential received in the range, ' +
          'acknowledged or not, each with `acknowledgedAt` (null while pending). Never acknowledges or ' +
          `re-queues anything. createdFrom at most ${EVENT_HISTORY_DAYS} days ago (acknowledged events ` +
          `are deleted after that). ${paging}`,
        security: [{ bearer: [] }],
        response: {
          200: json(
            "The credential's events of the range, oldest first, and the next cursor",
            eventHistorySchema,
          ),
          400: responses.validation,
        },
      },
      onRequest: bearer(ctx, 'orders:read'),
    },
    listEvents,
  );
};
