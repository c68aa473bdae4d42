import type { OpHandler, StoreWebhookHealth, WEBHOOK_OPS } from '@od/contracts';
import { type HandlerContext, iso } from './context.ts';

/**
 * The webhook health of every credential of a store (the panel's overview), one query on the
 * delivery index by credential (30 days of rows at most, the retention): last successful delivery,
 * queue size, consecutive failures, deactivation.
 */
export const storeHealthHandler =
  (ctx: HandlerContext): OpHandler<typeof WEBHOOK_OPS.storeHealth> =>
  async (req) => {
    const r = await ctx.pool.query<{
      client_id: string;
      last_delivered_at: Date | null;
      pending: string;
      consecutive_failures: number | null;
      deactivated_at: Date | null;
    }>(
      `SELECT c.client_id, d.last_delivered_at, coalesce(d.pending, 0) AS pending,
              e.consecutive_failures, e.deactivated_at
       FROM unnest($1::text[]) AS c(client_id)
       LEFT JOIN LATERAL (
         SELECT max(delivered_at) AS last_delivered_at, count(*) FILTER (WHERE status = 'PENDING') AS pending
         FROM delivery WHERE client_id = c.client_id
       ) d ON true
       LEFT JOIN endpoint e ON e.client_id = c.client_id`,
      [ctx.credentials.byMerchant(req.params.merchantId.toLowerCase()).map((c) => c.clientId)],
    );
    const items: StoreWebhookHealth[] = r.rows.map((x) => ({
      clientId: x.client_id,
      lastDeliveredAt: iso(x.last_delivered_at),
      pending: Number(x.pending),
      consecutiveFailures: x.consecutive_failures ?? 0,
      deactivated: x.deactivated_at !== null,
    }));
    return { status: 200, body: { items } };
  };
