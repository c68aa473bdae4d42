import { FEED_OPS } from '@od/contracts';
import type { FastifyInstance } from 'fastify';
import type { RouteModule } from '../context.ts';
import { rpcCall } from '../forward.ts';
import { installOpenDeliveryProfile, ORDERING_APP_VERSIONS } from '../profile/open-delivery.ts';

/**
 * The OPEN_DELIVERY profile (see profile/open-delivery.ts) and the standard's version route.
 * Registered first: its onSend hook must wrap every public route.
 */
export const openDeliveryRoutes: RouteModule = (app, ctx) => {
  installOpenDeliveryProfile(app as unknown as FastifyInstance, ctx, async (request, ids) => {
    const r = await rpcCall(ctx, request, FEED_OPS.ack, { body: ids.map((id) => ({ id })) });
    if (!r || r.status >= 300)
      request.log.warn({ status: r?.status }, 'auto-acknowledgment failed; the events come back');
  });
  app.get(
    '/v1/versions/orderingApp',
    {
      schema: {
        operationId: 'getOrderingAppVersions',
        tags: ['open delivery'],
        summary: 'Versions of the Open Delivery modules served (no authentication)',
      },
    },
    async () => ORDERING_APP_VERSIONS,
  );
};
