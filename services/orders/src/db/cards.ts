import type { OrderType, Situation } from '@od/contracts';
import type { Pool } from '@od/db';

/** One row of the card projection: what the panel board draws, never the whole document. */
export interface CardRow {
  id: string;
  displayId: string | null;
  type: OrderType;
  situation: Situation;
  /** ISO 8601 UTC, milliseconds (the cursor's form) */
  createdAt: string;
  updatedAt: string;
  customerName: string | null;
  total: number | null;
  itemCount: number;
  /** the confirmation deadline while PENDING (order_deadlines), else null */
  confirmBy: string | null;
}

export interface CardsPage {
  merchantId: string;
  limit: number;
  /** the last card of the previous page: strictly older ones come next */
  after?: { createdAt: string; id: string };
  /** only this order (a live push of one card) */
  orderId?: string;
}

/**
 * The panel board's cards of one store, newest first, in ONE query over a card-sized projection
 * (a few fields of the document, not the document) on `orders_merchant_created_idx`. Unpaid orders
 * (PENDING_PAYMENT) are not on the board: they do not exist for the store yet. A field the board
 * gains is one more column of this SELECT (the confirmation deadline: a primary-key lookup of order_deadlines).
 */
const ISO = `'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'`;

export async function orderCards(pool: Pool, p: CardsPage): Promise<CardRow[]> {
  const { rows } = await pool.query<CardRow>({
    name: 'orders.cards',
    text: `SELECT id, document->>'displayId' AS "displayId", type, situation,
        to_char(created_at AT TIME ZONE 'UTC', ${ISO}) AS "createdAt",
        to_char(updated_at AT TIME ZONE 'UTC', ${ISO}) AS "updatedAt",
        document->'customer'->>'name' AS "customerName",
        (document->'total'->'orderAmount'->>'value')::float8 AS total,
        COALESCE(json_array_length(document->'items'), 0)::int AS "itemCount",
        (SELECT to_char(d.confirm_by AT TIME ZONE 'UTC', ${ISO}) FROM order_deadlines d WHERE d.order_id = orders.id)
          AS "confirmBy"
      FROM orders
      WHERE merchant_id = $1 AND situation <> 'PENDING_PAYMENT'
        AND ($2::timestamptz IS NULL OR (created_at, id) < ($2::timestamptz, $3::uuid))
        AND ($4::uuid IS NULL OR id = $4::uuid)
      ORDER BY created_at DESC, id DESC
      LIMIT $5`,
    values: [p.merchantId, p.after?.createdAt ?? null, p.after?.id ?? null, p.orderId ?? null, p.limit],
  });
  return rows;
}
