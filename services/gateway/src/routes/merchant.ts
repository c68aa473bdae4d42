import { CATALOG_OPS, GUID_PATTERN, menusSchema, merchantSchema } from '@od/contracts';
import { errors } from '@od/errors';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { bearer } from '../auth/bearer.ts';
import type { RouteModule } from '../context.ts';
import { forward } from '../forward.ts';
import { sendError } from '../http/errors.ts';
import { json, responses } from '../http/responses.ts';

const params = z.object({ merchantId: z.string().regex(GUID_PATTERN) });

/**
 * Public routes served by the catalog service (SPEC Merchant and Menu). The path's merchantId must
 * be the credential's store: any other id (existing store or not) answers the same 404
 * ProblemDetails, decided here without a round trip and again by the service.
 */
export const merchantRoutes: RouteModule = (app, ctx) => {
  const read =
    (op: (typeof CATALOG_OPS)['getMerchant' | 'getMenus']) =>
    async (request: FastifyRequest, reply: FastifyReply) => {
      const { merchantId } = request.params as { merchantId: string };
      if (!request.auth || merchantId.toLowerCase() !== request.auth.merchantId.toLowerCase())
        return sendError(reply, errors.notFound(request.id));
      return forward(ctx, request, reply, op, { params: { merchantId } });
    };

  const reads = [
    {
      url: '/v1/merchant/:merchantId',
      operationId: 'getMerchant',
      summary: 'Store of the credential (scope merchant:read)',
      scope: 'merchant:read',
      ok: json('The store', merchantSchema),
      op: CATALOG_OPS.getMerchant,
    },
    {
      url: '/v1/merchant/:merchantId/menus',
      operationId: 'getMenus',
      summary: 'Menu of the store: an array holding its single menu (scope catalog:read)',
      scope: 'catalog:read',
      ok: json('An array holding the store’s single menu', menusSchema),
      op: CATALOG_OPS.getMenus,
    },
  ] as const;
  for (const r of reads)
    app.get(
      r.url,
      {
        schema: {
          operationId: r.operationId,
          tags: ['merchant'],
          summary: r.summary,
          security: [{ bearer: [] }],
          params,
          response: { 200: r.ok, 404: responses.notFound },
        },
        onRequest: bearer(ctx, r.scope),
      },
      read(r.op),
    );
};
