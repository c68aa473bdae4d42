import { CATALOG_OPS, merchantUpdateSchema, type Scope } from '@od/contracts';
import { errors } from '@od/errors';
import { merchantApiInfoSchema, merchantStatusSchema } from '@od/opendelivery';
import type { FastifyReply, FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import { z } from 'zod';
import { bearer } from '../auth/bearer.ts';
import type { GatewayContext, RouteModule } from '../context.ts';
import { forward } from '../forward.ts';
import { sendError } from '../http/errors.ts';
import { rawBodyRoutes, rawBodyValidator, rawJson } from '../http/raw-body.ts';

/** menuUpdated reads the point of sale (10 s bound in catalog): the gateway waits longer. */
const MENU_UPDATED_TIMEOUT_MS = 20_000;
const query = z.object({ merchantId: z.string().min(1).max(100) });
const tags = ['open delivery'];

/**
 * The standard's Merchant module in its own direction (the menu lives in the point of sale), for
 * OPEN_DELIVERY credentials only: any other credential gets the 404 of an unknown route. Served by
 * catalog (handlers/od-*.ts); errors reach the caller as the standard's Error (profile hook).
 */
export const odMerchantRoutes: RouteModule = (app, ctx) => {
  const guard = (scope: Scope) => [bearer(ctx, scope), openDeliveryOnly(ctx)];

  app.put(
    '/v1/merchantOnboarding',
    {
      schema: {
        tags,
        summary:
          'Open Delivery: register where the point of sale serves GET /v1/merchant (scope merchant:write)',
        description:
          'Body MerchantAPIInfo. 201 with the registration (apiKey left out) the first time, 204 after. The URL must be https without credentials; its address is checked at each read. OPEN_DELIVERY credentials only.',
        security: [{ bearer: [] }],
        querystring: query,
        body: merchantApiInfoSchema,
      },
      // the body schema documents MerchantAPIInfo: catalog checks it, once (od-onboarding.ts)
      validatorCompiler: rawBodyValidator,
      onRequest: guard('merchant:write'),
    },
    (request, reply) =>
      forward(ctx, request, reply, CATALOG_OPS.odOnboarding, {
        query: request.query as z.infer<typeof query>,
        body: request.body,
      }),
  );

  app.get(
    '/v1/merchantStatus',
    {
      schema: {
        tags,
        summary: 'Open Delivery: how the last read of GET /v1/merchant went (scope merchant:read)',
        description:
          'merchantId = the store id or the id given at onboarding. 404 before the first read. OPEN_DELIVERY credentials only.',
        security: [{ bearer: [] }],
        querystring: query,
        response: { 200: merchantStatusSchema },
      },
      onRequest: guard('merchant:read'),
    },
    async (request, reply) => {
      await forward(ctx, request, reply, CATALOG_OPS.odMerchantStatus, {
        query: request.query as z.infer<typeof query>,
      });
    },
  );

  // the standard allows an empty body: the JSON is read here. It names this webhook both
  // `/v1/menuUpdated` and `/v1/merchantUpdate`: one op, one scope, both paths.
  app.register(async (sub) => {
    const zsub = rawBodyRoutes(sub);
    for (const url of ['/v1/menuUpdated', '/v1/merchantUpdate'])
      zsub.post(
        url,
        {
          schema: {
            tags,
            summary:
              'Open Delivery: the point of sale changed its merchant; read it again (scope merchant:write)',
            description:
              'Empty body or entityType + updatedObjects: the platform reads GET /v1/merchant (https, SSRF rules, 10 s, 1 MiB), validates it against the standard Merchant schema and replaces the store and its menu; 204 when done, 400 naming the problem otherwise (nothing changes). One read per store at a time, then a cooldown (default 10 s): 429 merchant_fetch_pending with Retry-After meanwhile; 503 merchant_fetch_busy with Retry-After when the platform reads too many points of sale at once. merchantStatus alone opens or closes the store. OPEN_DELIVERY credentials only. The standard names this webhook both /v1/menuUpdated and /v1/merchantUpdate: both are served, identically.',
            security: [{ bearer: [] }],
            body: merchantUpdateSchema.optional(),
          },
          validatorCompiler: rawBodyValidator,
          onRequest: guard('merchant:write'),
        },
        (request, reply) => menuUpdated(ctx, request, reply),
      );
  });
};

function menuUpdated(ctx: GatewayContext, request: FastifyRequest, reply: FastifyReply) {
  const body = rawJson(request, true);
  if ('refused' in body) return sendError(reply, body.refused);
  // MerchantUpdate: checked once, by the op's schema in catalog (no body = {})
  return forward(
    ctx,
    request,
    reply,
    CATALOG_OPS.odMenuUpdated,
    { body: body.value ?? {} },
    MENU_UPDATED_TIMEOUT_MS,
  );
}

/** After `bearer`: the Merchant module is part of the OPEN_DELIVERY profile only. */
function openDeliveryOnly(ctx: GatewayContext): onRequestAsyncHookHandler {
  return async (request, reply) => {
    if (reply.sent) return;
    const clientId = request.auth?.clientId;
    if (!clientId || ctx.credentials.get(clientId)?.apiProfile !== 'OPEN_DELIVERY')
      return sendError(reply, errors.notFound(request.id));
  };
}
