import type { FastifyInstance } from 'fastify';
import type { RouteModule } from '../context.ts';
import { installOpenDeliveryProfile, ORDERING_APP_VERSIONS } from '../profile/open-delivery.ts';

/**
 * The OPEN_DELIVERY profile (see profile/open-delivery.ts) and the standard's version route.
 * Registered first: its onSend hook must wrap every public route.
 */
export const openDeliveryRoutes: RouteModule = (app, ctx) => {
  installOpenDeliveryProfile(app as unknown as FastifyInstance, ctx);
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
