import { CATALOG_OPS } from '@od/contracts';
import { z } from 'zod';
import type { PanelRoutes } from '../context.ts';
import { requireStore } from '../http/guards.ts';
import { relayStoreOp } from '../upstream.ts';

const params = z.object({ merchantId: z.string() });

/** `test` is the platform's flag (Admin API only): a store's user never sets it, whatever it sends. */
function withoutTest(body: unknown): unknown {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return body;
  const { test: _, ...rest } = body as Record<string, unknown>;
  return rest;
}

/** Store settings: read (every role), edit (OWNER). Served by catalog, whose op checks the edit. */
export const storeRoutes: PanelRoutes = (app, ctx) => {
  app.get(
    '/panel/api/stores/:merchantId',
    { schema: { params }, onRequest: requireStore(ctx, 'store') },
    (request, reply) => relayStoreOp(ctx, request, reply, CATALOG_OPS.adminGet),
  );
  app.patch(
    '/panel/api/stores/:merchantId',
    { schema: { params }, onRequest: requireStore(ctx, 'settings') },
    (request, reply) =>
      relayStoreOp(ctx, request, reply, CATALOG_OPS.adminPatch, withoutTest(request.body ?? null)),
  );
};
