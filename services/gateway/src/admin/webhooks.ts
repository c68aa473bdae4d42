import { TEXT, text, WEBHOOK_OPS } from '@od/contracts';
import { z } from 'zod';
import type { RouteModule } from '../context.ts';
import { relayRoutes } from '../forward.ts';
import { adminIdParam, clientParams } from './params.ts';

// ids are checked by the webhook service (unknown or malformed = 404), not here
const eventParams = z.object({ clientId: adminIdParam, eventId: adminIdParam });
// values are checked by the service (400 validation_error); here only their length
const pageQuery = z.object({
  limit: text(TEXT.query).optional(),
  cursor: text(TEXT.query).optional(),
});
const deliveriesQuery = pageQuery.extend({ status: text(TEXT.query).optional() });

/**
 * Admin routes served by the webhook service: attempt log, deliveries, URL health, resend, clear
 * queue. Answers (status and bytes) are forwarded untouched.
 */
export const webhookAdminRoutes: RouteModule = (app, ctx) => {
  const relay = relayRoutes(app, ctx);
  const at = '/admin/v1/credentials/:clientId';
  relay.get(`${at}/webhook-attempts`, { params: clientParams, querystring: pageQuery }, WEBHOOK_OPS.attempts);
  relay.get(
    `${at}/webhook-deliveries`,
    { params: clientParams, querystring: deliveriesQuery },
    WEBHOOK_OPS.deliveries,
  );
  relay.get(`${at}/webhook`, { params: clientParams }, WEBHOOK_OPS.status);
  relay.post(`${at}/events/:eventId/resend`, { params: eventParams }, WEBHOOK_OPS.resend);
  relay.post(`${at}/webhook-queue/clear`, { params: clientParams }, WEBHOOK_OPS.clearQueue);
};
