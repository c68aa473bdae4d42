import { inviteBodySchema, PANEL_OPS } from '@od/contracts';
import { z } from 'zod';
import type { RouteModule } from '../context.ts';
import { forward } from '../forward.ts';

// ids are checked by the panel service (unknown or malformed = 404)
const storeParams = z.object({ merchantId: z.string() });
const userParams = z.object({ merchantId: z.string(), userId: z.string() });

/**
 * Admin routes served by the panel service: merchant users of a store. The invite answers 201
 * `{ userId, email, role, setupToken, setupUrl }`; the token is single-use, valid 72 h, shown once.
 */
export const userAdminRoutes: RouteModule = (app, ctx) => {
  app.post(
    '/admin/v1/merchants/:merchantId/users',
    { schema: { params: storeParams, body: inviteBodySchema } },
    (request, reply) =>
      forward(ctx, request, reply, PANEL_OPS.invite, { params: request.params, body: request.body }),
  );
  app.get('/admin/v1/merchants/:merchantId/users', { schema: { params: storeParams } }, (request, reply) =>
    forward(ctx, request, reply, PANEL_OPS.list, { params: request.params }),
  );
  app.delete(
    '/admin/v1/merchants/:merchantId/users/:userId',
    { schema: { params: userParams } },
    (request, reply) => forward(ctx, request, reply, PANEL_OPS.remove, { params: request.params }),
  );
};
