import { CATALOG_OPS, merchantPatchSchema } from '@od/contracts';
import { z } from 'zod';
import type { PanelRoutes } from '../context.ts';
import { requireStore } from '../http/guards.ts';
import { relayStoreOp } from '../upstream.ts';

const params = z.object({ merchantId: z.string() });

/** Store settings: read (every role), edit (OWNER). Served by catalog. */
export const storeRoutes: PanelRoutes = (app, ctx) => {
  app.get(
    '/panel/api/stores/:merchantId',
    { schema: { params }, onRequest: requireStore(ctx, 'store') },
    (request, reply) => relayStoreOp(ctx, request, reply, CATALOG_OPS.adminGet),
  );
  app.patch(
    '/panel/api/stores/:merchantId',
    {
      schema: { params, body: merchantPatchSchema.omit({ test: true }) },
      onRequest: requireStore(ctx, 'settings'),
    },
    (request, reply) => relayStoreOp(ctx, request, reply, CATALOG_OPS.adminPatch, true),
  );
};
