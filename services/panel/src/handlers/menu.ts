import { CATALOG_OPS } from '@od/contracts';
import { z } from 'zod';
import type { PanelRoutes } from '../context.ts';
import { requireStore } from '../http/guards.ts';
import { relay, relayStoreOp, upstream } from '../upstream.ts';

const params = z.object({ merchantId: z.string() });

/**
 * The store's menu (OWNER and STAFF). GET answers the public menu integrators receive (it is also a
 * valid input: variations appear as their generated option group); PUT replaces it (catalog
 * validates and answers 400 `{ error, message, errors }` with paths like `items[0].price`).
 */
export const menuRoutes: PanelRoutes = (app, ctx) => {
  const staff = requireStore(ctx, 'menu');
  app.get(
    '/panel/api/stores/:merchantId/menu',
    { schema: { params }, onRequest: staff },
    async (request, reply) => {
      const r = await upstream(ctx, request, CATALOG_OPS.adminGetMenu, {
        params: { merchantId: request.store!.merchantId },
      });
      if (r.status !== 200) return relay(reply, r);
      return reply.send({ menu: r.body.menu });
    },
  );
  app.put('/panel/api/stores/:merchantId/menu', { schema: { params }, onRequest: staff }, (request, reply) =>
    relayStoreOp(ctx, request, reply, CATALOG_OPS.adminPutMenu, request.body ?? null),
  );
};
