import {
  ACK_MAX_ENTRIES,
  ackBodySchema,
  ackResponseSchema,
  BYTES,
  eventEnvelopeSchema,
  FEED_OPS,
  POLL_PAGE_MAX_BYTES,
  pollQuerySchema,
} from '@od/contracts';
import { errors } from '@od/errors';
import { platformTypesFor } from '@od/opendelivery';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { bearer } from '../auth/bearer.ts';
import type { RouteModule } from '../context.ts';
import { forward, rpcCall, writeRpcReply } from '../forward.ts';
import { sendError } from '../http/errors.ts';
import { json, responses } from '../http/responses.ts';
import { isOpenDeliveryCaller, pollingFilter } from '../profile/open-delivery.ts';

const JSON_TYPE = 'application/json; charset=utf-8';
const EMPTY_PAGE = Buffer.from('[]');
const isEmptyPage = (b: Uint8Array) => b.length === 2 && b[0] === 0x5b && b[1] === 0x5d;

/**
 * Public routes served by the feed service (SPEC Events: polling and acknowledgment).
 * The polling reply is a JSON array built by PostgreSQL and forwarded as bytes.
 */
export const eventRoutes: RouteModule = (app, ctx) => {
  // the empty-poll fast path (empty-polls.ts): a credential known to have nothing pending is
  // answered here, after the bearer check (pause, revocation, scope, rate limit) like any poll;
  // OPEN_DELIVERY callers' filtered polls always go to the feed
  const poll = async (request: FastifyRequest, reply: FastifyReply) => {
    // the default limit is the feed's (its op schema)
    const query = { limit: (request.query as { limit?: number }).limit };
    if (!isOpenDeliveryCaller(ctx, request)) {
      const { clientId, merchantId } = request.auth!;
      if (ctx.emptyPolls.isEmpty(clientId, merchantId)) return reply.type(JSON_TYPE).send(EMPTY_PAGE);
      const generation = ctx.emptyPolls.generation(merchantId);
      const r = await rpcCall(ctx, request, FEED_OPS.poll, { query });
      if (!r) return sendError(reply, errors.unavailable(request.id));
      if (r.status === 200 && isEmptyPage(r.body)) ctx.emptyPolls.remember(clientId, merchantId, generation);
      return writeRpcReply(reply, r);
    }
    // OPEN_DELIVERY: the standard's filters; the feed acknowledges (and leaves out) the other types
    const f = pollingFilter(request);
    if ('error' in f) return sendError(reply, errors.validation({ [f.field]: [f.error] }, request.id));
    if (f.merchants && !f.merchants.includes(request.auth?.merchantId ?? ''))
      return reply.code(200).type('application/json; charset=utf-8').send('[]');
    return forward(ctx, request, reply, FEED_OPS.poll, {
      query: { ...query, keep: platformTypesFor(f.types) },
    });
  };
  const pollSchema = (deprecated: boolean) => ({
    operationId: deprecated ? 'pollEventsAlias' : 'pollEvents',
    tags: ['events'],
    summary: deprecated
      ? 'Alias of GET /v1/events:polling, kept for old integrations (not for new ones)'
      : 'Pending events of the credential, oldest first (scope orders:read)',
    description:
      'Unacknowledged events come back on every call (at-least-once): deduplicate by eventId. ' +
      'An empty array means no pending events (never 204). A page holds at most `limit` events and ' +
      `at most ${POLL_PAGE_MAX_BYTES / 1024} KiB of JSON: a page may stop early, poll again for the rest.`,
    ...(deprecated ? { deprecated: true, 'x-extension': true } : {}),
    security: [{ bearer: [] }],
    querystring: pollQuerySchema,
    response: {
      200: json('Pending events, oldest first; [] when none', z.array(eventEnvelopeSchema)),
      400: responses.validation,
    },
  });
  // ':' starts a path parameter in fastify's router; '::' is a literal colon.
  const pollOptions = (deprecated: boolean) => ({
    schema: pollSchema(deprecated),
    onRequest: bearer(ctx, 'orders:read'),
    config: { openDelivery: 'events' as const },
  });
  app.get('/v1/events::polling', pollOptions(false), poll);
  app.get('/v1/events/::polling', pollOptions(true), poll);

  app.post(
    '/v1/events/acknowledgment',
    {
      schema: {
        operationId: 'acknowledgeEvents',
        tags: ['events'],
        summary: 'Acknowledge events of the credential (scope orders:read)',
        description:
          '`acknowledged` counts the entries this call moved to acknowledged; unknown or repeated ids are harmless. ' +
          `Acknowledged events are deleted after 30 days. At most ${ACK_MAX_ENTRIES} entries; body max ` +
          `${BYTES.publicBody / 1024} KiB.`,
        security: [{ bearer: [] }],
        body: ackBodySchema,
        response: {
          202: json('Accepted: how many entries this call acknowledged', ackResponseSchema),
          400: responses.validation,
        },
      },
      onRequest: bearer(ctx, 'orders:read'),
      config: { openDelivery: 'accepted' },
    },
    async (request, reply) => forward(ctx, request, reply, FEED_OPS.ack, { body: request.body }),
  );
};
