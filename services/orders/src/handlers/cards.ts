import {
  cardsCursor,
  isGuid,
  type OpHandler,
  type ORDER_OPS,
  type OrderCard,
  parseCardsCursor,
} from '@od/contracts';
import { errors } from '@od/errors';
import { type CardRow, orderCards } from '../db/cards.ts';
import type { OrdersDeps } from '../deps.ts';
import { nextActions } from '../domain/state-machine.ts';

const toCard = (r: CardRow): OrderCard => ({
  id: r.id,
  displayId: r.displayId ?? r.id.slice(0, 8),
  type: r.type,
  situation: r.situation,
  createdAt: r.createdAt,
  lastUpdate: r.updatedAt,
  customerName: r.customerName,
  total: r.total ?? 0,
  itemCount: r.itemCount,
  nextActions: nextActions(r.type, r.situation),
  confirmBy: r.confirmBy,
});

/**
 * `cards` (the panel board, `GET /panel/api/stores/{merchantId}/orders`): a page of the store's order
 * cards, newest first, from one query; `nextCursor` is null on the last page. With `orderId`, that
 * order's card alone (the board's live push): `orders` is empty when it is not the store's.
 */
export function cards(deps: OrdersDeps): OpHandler<typeof ORDER_OPS.cards> {
  return async (req) => {
    const merchantId = req.params.merchantId.toLowerCase();
    if (!isGuid(merchantId)) return errors.adminNotFound('Estabelecimento');
    const { limit, cursor, orderId } = req.query;
    if (orderId !== undefined && !isGuid(orderId))
      return { status: 200, body: { orders: [], nextCursor: null } };
    const rows = await orderCards(deps.pool, {
      merchantId,
      limit: limit + 1,
      after: cursor ? parseCardsCursor(cursor) : undefined,
      orderId: orderId?.toLowerCase(),
    });
    const page = rows.slice(0, limit).map(toCard);
    const nextCursor = rows.length > limit ? cardsCursor(page[page.length - 1]) : null;
    return { status: 200, body: { orders: page, nextCursor } };
  };
}
