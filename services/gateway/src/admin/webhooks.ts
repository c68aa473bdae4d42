import { TEXT, text, WEBHOOK_OPS } from '@od/contracts';
import { z } from 'zod';
import type { RouteModule } from '../context.ts';
import { forward } from '../forward.ts';
import { adminIdParam } from './params.ts';

// ids are checked by the webhook service (unknown or malformed = 404), not here
const clientParams = z.object({ clientId: adminIdParam });
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
  app.get(
    '/admin/v1/credentials/:clientId/webhook-attempts',
    { schema: { params: clientParams, querystring: pageQuery } },
    (request, reply) =>
      forward(ctx, request, reply, WEBHOOK_OPS.attempts, {
        params: request.params,
        query: request.query,
      }),
  );
  app.get(
    '/admin/v1/credentials/:clientId/webhook-deliveries',
    { schema: { params: clientParams, querystring: deliveriesQuery } },
    (request, reply) =>
      forward(ctx, request, reply, WEBHOOK_OPS.deliveries, {
        params: request.params,
        query: request.query,
      }),
  );
  app.get('/admin/v1/credentials/:clientId/webhook', { schema: { params: clientParams } }, (request, reply) =>
    forward(ctx, request, reply, WEBHOOK_OPS.status, { params: request.params }),
  );
  app.post(
    '/admin/v1/credentials/:clientId/events/:eventId/resend',
    { schema: { params: eventParams } },
    (request, reply) => forward(ctx, request, reply, WEBHOOK_OPS.resend, { params: request.params }),
  );
  app.post(
    '/admin/v1/credentials/:clientId/webhook-queue/clear',
    { schema: { params: clientParams } },
    (request, reply) => forward(ctx, request, reply, WEBHOOK_OPS.clearQueue, { params: request.params }),
  );
};
