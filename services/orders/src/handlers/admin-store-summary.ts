import { isGuid, OPEN_SITUATIONS, type OpHandler, type ORDER_OPS } from '@od/contracts';
import type { Pool } from '@od/db';

/**
 * `admin.storeSummary` (the panel's overview): orders placed since `since` (the merchant's
 * midnight), their sales (order amount, cancelled orders excluded), and open orders by situation
 * (any age). One query on the (merchant_id, created_at) index; open orders are read from the last
 * 7 days (an order open longer is a stuck order, not today's work).
 */
export function adminStoreSummary(pool: Pool): OpHandler<typeof ORDER_OPS.adminStoreSummary> {
  return async (req) => {
    const { merchantId } = req.params;
    const since = new Date(req.query.since);
    const empty = { today: { orders: 0, sales: 0, cancelled: 0 }, open: {} };
    if (!isGuid(merchantId)) return { status: 200, body: empty };
    const r = await pool.query<{
      situation: string;
      today: number;
      open: number;
      sales: string | null;
      cancelled: number;
    }>(
      `SELECT situation,
              count(*) FILTER (WHERE created_at >= $2)::int AS today,
              count(*) FILTER (WHERE situation = ANY($3))::int AS open,
              sum(((document->'total'->'orderAmount'->>'value')::numeric))
                FILTER (WHERE created_at >= $2 AND situation <> 'CANCELLED') AS sales,
              count(*) FILTER (WHERE created_at >= $2 AND situation = 'CANCELLED')::int AS cancelled
       FROM orders
       WHERE merchant_id = $1 AND created_at >= least($2, now() - interval '7 days')
       GROUP BY situation`,
      [merchantId.toLowerCase(), since, [...OPEN_SITUATIONS]],
    );
    const body = structuredClone(empty) as { today: typeof empty.today; open: Record<string, number> };
    for (const x of r.rows) {
      body.today.orders += x.today;
      body.today.sales += Number(x.sales ?? 0);
      body.today.cancelled += x.cancelled;
      if (x.open) body.open[x.situation] = x.open;
    }
    body.today.sales = Math.round(body.today.sales * 100) / 100;
    return { status: 200, body };
  };
}
