import { receives } from '@od/bus';
import { isGuid, type OpHandler, type WEBHOOK_OPS } from '@od/contracts';
import { errors, HttpException } from '@od/errors';
import type { Delivery } from '../db/generated/client.ts';
import { notDeliverable } from '../domain/targets.ts';
import { credentialOf, type HandlerContext } from './context.ts';
import { deliveryView } from './deliveries.ts';

/**
 * POST /admin/v1/credentials/{clientId}/events/{eventId}/resend -> 202: delivers the event again by
 * webhook (a new round of up to four attempts), whatever happened before. 404 when the event is
 * unknown or the credential is not one of its recipients (other store, older than the credential,
 * marketplace filter, revoked); 409 when the credential cannot receive webhooks now (paused, polling only, URL deactivated).
 */
export const resendHandler =
  (ctx: HandlerContext): OpHandler<typeof WEBHOOK_OPS.resend> =>
  async (req) => {
    const cred = credentialOf(ctx, req.params);
    const { eventId } = req.params;
    if (!isGuid(eventId)) throw new HttpException(errors.adminNotFound('Evento'));
    const ev = await ctx.db.event.findUnique({ where: { eventId: eventId.toLowerCase() } });
    if (!ev || !receives(cred, { ...ev, createdAt: ev.createdAt.toISOString() })) {
      throw new HttpException(errors.adminNotFound('Evento'));
    }
    const reason = notDeliverable(cred);
    if (reason) {
      throw new HttpException(errors.webhookUnavailable(reason));
    }
    const endpoint = await ctx.db.endpoint.findUnique({ where: { clientId: cred.clientId } });
    if (endpoint?.deactivatedAt) {
      throw new HttpException(errors.webhookDeactivated());
    }
    const r = await ctx.pool.query<Record<string, unknown>>(
      `INSERT INTO delivery (event_id, client_id, merchant_id, event_type, status, next_attempt_at)
       VALUES ($1, $2, $3, $4, 'PENDING', now())
       ON CONFLICT (event_id, client_id) DO UPDATE SET
         status = 'PENDING', round = delivery.round + 1, attempts = 0, skip_reason = NULL,
         next_attempt_at = now(), last_status_code = NULL, last_error = NULL, delivered_at = NULL,
         updated_at = now()
       RETURNING id, event_id AS "eventId", client_id AS "clientId", merchant_id AS "merchantId",
                 event_type AS "eventType", status, skip_reason AS "skipReason", round, attempts,
                 next_attempt_at AS "nextAttemptAt", last_status_code AS "lastStatusCode",
                 last_error AS "lastError", created_at AS "createdAt", updated_at AS "updatedAt",
                 delivered_at AS "deliveredAt"`,
      [ev.eventId, cred.clientId, ev.merchantId, ev.eventType],
    );
    ctx.wake();
    return { status: 202, body: deliveryView(r.rows[0] as unknown as Delivery) };
  };
