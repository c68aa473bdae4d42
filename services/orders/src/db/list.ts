import type { Pool } from '@od/db';

/** Upper bound of the id tie-breaker on a first page (no cursor): every id sorts below it. */
const MAX_UUID = 'ffffffff-ffff-ffff-ffff-ffffffffffff';
const ISO = `'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'`;

// One backward range scan of orders_merchant_created_idx (merchant_id, created_at): the store, the
// range and the keyset position's time are its bounds; the id tie-break is an incremental sort of the
// few rows sharing a millisecond. PostgreSQL builds each summary's JSON. (A (merchant_id, created_at,
// id) index would spare that sort, but building it blocks writes on the unbounded orders table.)
const LIST_SQL = `SELECT id::text AS id, to_char(created_at AT TIME ZONE 'UTC', ${ISO}) AS at,
  json_build_object('id', id, 'displayId', document->>'displayId', 'type', type, 'situation', situation,
    'createdAt', to_char(created_at AT TIME ZONE 'UTC', ${ISO}),
    'lastUpdate', to_char(updated_at AT TIME ZONE 'UTC', ${ISO}),
    'total', document->'total')::text AS j
FROM orders
WHERE merchant_id = $1 AND created_at >= $2 AND created_at < $3 AND (created_at, id) < ($4, $5::uuid)
  AND situation <> 'PENDING_PAYMENT' AND ($6::text IS NULL OR situation = $6)
  AND ($7::boolean OR channel <> 'MARKETPLACE')
ORDER BY orders.created_at DESC, orders.id DESC
LIMIT $8`;

export interface ListedOrder {
  id: string;
  /** created_at, ISO 8601 UTC with milliseconds: the cursor's time */
  at: string;
  /** the summary as JSON text */
  j: string;
}

/** Up to `take` summaries of a store's visible orders in [from, to), strictly after `after` (newest first). */
export async function listOrders(
  pool: Pool,
  q: {
    merchantId: string;
    from: Date;
    to: Date;
    after?: { at: string; id: string };
    situation?: string;
    includeMarketplace: boolean;
    take: number;
  },
): Promise<ListedOrder[]> {
  const { rows } = await pool.query<ListedOrder>({
    name: 'orders.list',
    text: LIST_SQL,
    values: [
      q.merchantId,
      q.from.toISOString(),
      q.to.toISOString(),
      q.after?.at ?? q.to.toISOString(),
      q.after?.id ?? MAX_UUID,
      q.situation ?? null,
      q.includeMarketplace,
      q.take,
    ],
  });
  return rows;
}
