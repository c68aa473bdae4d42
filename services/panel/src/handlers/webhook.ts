import { WEBHOOK_OPS } from '@od/contracts';
import { z } from 'zod';
import type { PanelRoutes } from '../context.ts';
import { requireStore } from '../http/guards.ts';
import { relay, upstream } from '../upstream.ts';
import { credentialParams, ownCredential } from './credentials.ts';

const page = z.object({
  limit: z.coerce.number().int().min(1).max(100).optional(),
  cursor: z.string().max(200).optional(),
});

/**
 * Webhook of a credential (OWNER only): endpoint health, attempts, deliveries, resend, clear queue,
 * and "send a test event" (a signed TEST envelope posted now, the receiver's answer shown).
 */
export const webhookRoutes: PanelRoutes = (app, ctx) => {
  const owner = requireStore(ctx, 'credentials');
  const base = '/panel/api/stores/:merchantId/credentials/:clientId';
  const reads = {
    webhook: WEBHOOK_OPS.status,
    'webhook-attempts': WEBHOOK_OPS.attempts,
    'webhook-deliveries': WEBHOOK_OPS.deliveries,
  };
  for (const [path, op] of Object.entries(reads)) {
    app.get(
      `${base}/${path}`,
      { schema: { params: credentialParams, querystring: page }, onRequest: owner },
      async (request, reply) => {
        const { clientId } = request.params;
        await ownCredential(ctx, request, request.store!.merchantId, clientId);
        const query = Object.fromEntries(
          Object.entries(request.query)
            .filter(([, v]) => v !== undefined)
            .map(([k, v]) => [k, String(v)]),
        );
        return relay(reply, await upstream(ctx, request, op, { params: { clientId }, query }));
      },
    );
  }
  const actions = { 'webhook-queue/clear': WEBHOOK_OPS.clearQueue, 'webhook-test': WEBHOOK_OPS.sendTest };
  for (const [path, op] of Object.entries(actions)) {
    app.post(
      `${base}/${path}`,
      { schema: { params: credentialParams }, onRequest: owner },
      async (request, reply) => {
        const { clientId } = request.params;
        await ownCredential(ctx, request, request.store!.merchantId, clientId);
        return relay(reply, await upstream(ctx, request, op, { params: { clientId } }));
      },
    );
  }
  app.post(
    `${base}/events/:eventId/resend`,
    { schema: { params: credentialParams.extend({ eventId: z.string().max(100) }) }, onRequest: owner },
    async (request, reply) => {
      const { clientId, eventId } = request.params;
      await ownCredential(ctx, request, request.store!.merchantId, clientId);
      return relay(
        reply,
        await upstream(ctx, request, WEBHOOK_OPS.resend, { params: { clientId, eventId } }),
      );
    },
  );
};
