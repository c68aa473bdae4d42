import type { OpHandler, WEBHOOK_OPS, WebhookEndpointView } from '@od/contracts';
import { credentialOf, type HandlerContext, iso } from './context.ts';

/** GET /admin/v1/credentials/{clientId}/webhook: URL health (failures, deactivation) and queue size. */
export const statusHandler =
  (ctx: HandlerContext): OpHandler<typeof WEBHOOK_OPS.status> =>
  async (req) => {
    const cred = credentialOf(ctx, req.params);
    const [endpoint, pending] = await Promise.all([
      ctx.db.endpoint.findUnique({ where: { clientId: cred.clientId } }),
      ctx.db.delivery.count({ where: { clientId: cred.clientId, status: 'PENDING' } }),
    ]);
    const body: WebhookEndpointView = {
      clientId: cred.clientId,
      webhookUrl: cred.webhookUrl,
      deliveryMode: cred.deliveryMode,
      consecutiveFailures: endpoint?.consecutiveFailures ?? 0,
      deactivated: !!endpoint?.deactivatedAt,
      deactivatedAt: iso(endpoint?.deactivatedAt),
      pending,
    };
    return { status: 200, body };
  };
