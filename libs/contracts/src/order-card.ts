import { z } from 'zod';
import { ORDER_ACTIONS, ORDER_TYPES, SITUATIONS } from './order.ts';

/** The panel board pages orders newest first: this many by default, at most ORDER_CARDS_MAX. */
export const ORDER_CARDS_DEFAULT = 50;
export const ORDER_CARDS_MAX = 100;
/** `createdAt_id` of the last card of a page (opaque to the page: it only sends it back) */
const CARDS_CURSOR = /^\d{4}-\d{2}-\d{2}T[\d:.]+Z_[0-9a-f-]{36}$/;

/**
 * What the board draws of an order, selected by one query over a card-sized projection
 * (services/orders/src/db/cards.ts). `nextActions`: the panel actions the state machine allows now,
 * the natural next step first (services/orders/src/domain/state-machine.ts, `nextActions`).
 */
export const orderCardSchema = z.object({
  id: z.string(),
  displayId: z.string(),
  type: z.enum(ORDER_TYPES),
  situation: z.enum(SITUATIONS),
  createdAt: z.string(),
  lastUpdate: z.string(),
  customerName: z.string().nullable(),
  /** orderAmount in BRL */
  total: z.number(),
  itemCount: z.number().int(),
  nextActions: z.array(z.enum(ORDER_ACTIONS)),
  /** while PENDING: when the platform cancels the order if nobody confirms it (the board's countdown) */
  confirmBy: z.string().nullable(),
});
export type OrderCard = z.infer<typeof orderCardSchema>;

export const orderCardsQuerySchema = z.object({
  limit: z.coerce
    .number()
    .int('limit deve ser inteiro.')
    .min(1, 'limit deve ser no mínimo 1.')
    .max(ORDER_CARDS_MAX, `limit deve ser no máximo ${ORDER_CARDS_MAX}.`)
    .default(ORDER_CARDS_DEFAULT),
  cursor: z.string().regex(CARDS_CURSOR, 'cursor inválido.').optional(),
  /** one order's card (the live push of the panel board) */
  orderId: z.string().max(100).optional(),
});
export type OrderCardsQuery = z.input<typeof orderCardsQuerySchema>;

export const orderCardsReplySchema = z.object({
  orders: z.array(orderCardSchema),
  nextCursor: z.string().nullable(),
});
export type OrderCards = z.infer<typeof orderCardsReplySchema>;

export const cardsCursor = (c: { createdAt: string; id: string }): string => `${c.createdAt}_${c.id}`;
export function parseCardsCursor(cursor: string): { createdAt: string; id: string } {
  const [createdAt, id] = cursor.split('_');
  return { createdAt, id };
}
