import type { RpcHandler } from '@od/bus';
import { isGuid } from '@od/contracts';
import { errors } from '@od/errors';
import type { OrdersDeps } from '../core.ts';

/** `admin.get` (GET /admin/v1/orders/{orderId}): Order + { situation, channel, history } (any state). */
export function adminGet(deps: OrdersDeps): RpcHandler {
  return async (req) => {
    const orderId = req.params?.orderId;
    if (!isGuid(orderId)) return errors.orderNotFound();
    const { rows } = await deps.pool.query<{ d: string; situation: string; channel: string }>(
      'SELECT document::text AS d, situation, channel FROM orders WHERE id = $1',
      [orderId],
    );
    if (rows.length === 0) return errors.orderNotFound();
    const h = await deps.pool.query(
      `SELECT trigger, from_situation AS "from", to_situation AS "to", actor_kind AS "actorKind",
              actor_client_id AS "actorClientId", event_id AS "eventId", event_type AS "eventType",
              detail, to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "createdAt"
       FROM order_history WHERE order_id = $1 ORDER BY id`,
      [orderId],
    );
    return {
      status: 200,
      body: {
        ...JSON.parse(rows[0].d),
        situation: rows[0].situation,
        channel: rows[0].channel,
        history: h.rows,
      },
    };
  };
}
