import { CATALOG_OPS, merchantCreateSchema, merchantPatchSchema } from '@od/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { RouteModule } from '../context.ts';
import { forward } from '../forward.ts';

// Any string: the service answers 404 not_found for an id that is not a GUID (admin error form).
const params = z.object({ merchantId: z.string() });

/**
 * Admin routes served by the catalog service: create, read and edit stores, replace a store's
 * menu. Merchant bodies are validated here (400 validation_error); the menu body (a menu object or
 * an array holding one) is validated by the service, which checks references and answers the same
 * 400 form.
 */
export const merchantAdminRoutes: RouteModule = (app, ctx) => {
  const pass =
    (op: string) => (request: FastifyRequest<{ Params?: Record<string, string> }>, reply: FastifyReply) =>
      forward(ctx, request, reply, 'catalog', op, {
        params: request.params as Record<string, string> | undefined,
        body: request.body,
      });

  app.post('/admin/v1/merchants', { schema: { body: merchantCreateSchema } }, pass(CATALOG_OPS.adminCreate));
  app.get('/admin/v1/merchants/:merchantId', { schema: { params } }, pass(CATALOG_OPS.adminGet));
  app.patch(
    '/admin/v1/merchants/:merchantId',
    { schema: { params, body: merchantPatchSchema } },
    pass(CATALOG_OPS.adminPatch),
  );
  app.put('/admin/v1/merchants/:merchantId/menu', { schema: { params } }, pass(CATALOG_OPS.adminPutMenu));
};
