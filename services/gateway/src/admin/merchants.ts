import { CATALOG_OPS, merchantCreateSchema, merchantPatchSchema } from '@od/contracts';
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
  app.post('/admin/v1/merchants', { schema: { body: merchantCreateSchema } }, (request, reply) =>
    forward(ctx, request, reply, CATALOG_OPS.adminCreate, { body: request.body }),
  );
  app.get('/admin/v1/merchants/:merchantId', { schema: { params } }, (request, reply) =>
    forward(ctx, request, reply, CATALOG_OPS.adminGet, { params: request.params }),
  );
  app.patch(
    '/admin/v1/merchants/:merchantId',
    { schema: { params, body: merchantPatchSchema } },
    (request, reply) =>
      forward(ctx, request, reply, CATALOG_OPS.adminPatch, { params: request.params, body: request.body }),
  );
  app.put('/admin/v1/merchants/:merchantId/menu', { schema: { params } }, (request, reply) =>
    forward(ctx, request, reply, CATALOG_OPS.adminPutMenu, { params: request.params, body: request.body }),
  );
};
