import { CATALOG_OPS, merchantPatchSchema } from '@od/contracts';
import { z } from 'zod';
import type { PanelRoutes } from '../context.ts';
import { requireStore } from '../http/guards.ts';
import { relay, upstream } from '../upstream.ts';

const params = z.object({ merchantId: z.string() });

/** Store settings: read (every role), edit (OWNER). Served by catalog. */
export const storeRoutes: PanelRoutes = (app, ctx) => {
  app.get(
    '/panel/api/stores/:merchantId',
    { schema: { params }, preHandler: requireStore(ctx, 'store') },
    async (request, reply) =>
      relay(
        reply,
        await upstream(ctx, request, CATALOG_OPS.adminGet, {
          params: { merchantId: request.store!.merchantId },
        }),
      ),
  );
  app.patch(
    '/panel/api/stores/:merchantId',
    {
      schema: { params, body: merchantPatchSchema.omit({ test: true }) },
      preHandler: requireStore(ctx, 'settings'),
    },
    async (request, reply) =>
      relay(
        reply,
        await upstream(ctx, request, CATALOG_OPS.adminPatch, {
          params: { merchantId: request.store!.merchantId },
          body: request.body,
        }),
      ),
  );
};
