import type { OpHandler, WEBHOOK_OPS } from '@od/contracts';
import { withTx } from '@od/db';
import { credentialOf, type HandlerContext } from './context.ts';

/**
 * POST /admin/v1/credentials/{clientId}/webhook-queue/clear -> 200 { cleared, reactivated }.
 * Empties the credential's queue: every PENDING delivery (waiting retries included) and every
 * delivery SKIPPED because the URL was deactivated becomes CLEARED (not sent; the events stay
 * pollable and can be resent one by one). WEBHOOK_FAILED and DELIVERED history is kept. The
 * consecutive-failure count goes back to 0 and a deactivated URL is enabled again: the next event
 * is delivered normally.
 */
export const clearQueueHandler =
  (ctx: HandlerContext): OpHandler<typeof WEBHOOK_OPS.clearQueue> =>
  async (req) => {
    const cred = credentialOf(ctx, req.params);
    return withTx(ctx.pool, async (client) => {
      const cleared = await client.query(
        `UPDATE delivery SET status = 'CLEARED', next_attempt_at = NULL, updated_at = now()
         WHERE client_id = $1
           AND (status = 'PENDING' OR (status = 'SKIPPED' AND skip_reason = 'webhook_deactivated'))`,
        [cred.clientId],
      );
      const ep = await client.query<{ was: string | null }>(
        `UPDATE endpoint e SET consecutive_failures = 0, deactivated_at = NULL, updated_at = now()
         FROM (SELECT client_id, deactivated_at AS was FROM endpoint WHERE client_id = $1 FOR UPDATE) old
         WHERE e.client_id = old.client_id
         RETURNING old.was`,
        [cred.clientId],
      );
      return {
        status: 200,
        body: { cleared: cleared.rowCount ?? 0, reactivated: !!ep.rows[0]?.was },
      };
    });
  };
