import { randomUUID } from 'node:crypto';
import {
  CATALOG_OPS,
  ORDER_ACTIONS,
  ORDER_OPS,
  ORDER_TYPES,
  type OrderCard,
  type OrderCards,
  type OrderCardsQuery,
  orderCardsQuerySchema,
  type PanelOrderDetail,
  type Principal,
} from '@od/contracts';
import { HttpException } from '@od/errors';
import { z } from 'zod';
import type { PanelContext, PanelRoutes } from '../context.ts';
import { panelErrors } from '../domain/panel-errors.ts';
import { requireStore } from '../http/guards.ts';
import { type Caller, ok, PANEL_ITSELF, relay, upstream } from '../upstream.ts';

const storeParams = z.object({ merchantId: z.string() });
const orderParams = storeParams.extend({ orderId: z.string().max(100) });
/** what the page may ask: the page size and the cursor of the previous page */
const cardsQuery = orderCardsQuerySchema.pick({ limit: true, cursor: true });

/**
 * A page of the store's order cards (orders' `cards` op: one query), or one order's card when
 * `orderId` is given (no card when that order is not the store's).
 */
async function cardsOf(
  ctx: PanelContext,
  request: Caller,
  merchantId: string,
  query: OrderCardsQuery,
  principal?: Principal,
): Promise<OrderCards> {
  const r = await upstream(ctx, request, ORDER_OPS.cards, { params: { merchantId }, query }, principal);
  if (!ok(r)) throw new HttpException({ status: r.status, body: r.body });
  return r.body;
}

/** The card of an order of the store, else 404 (an order id of another store does not exist here). */
async function storeCard(
  ctx: PanelContext,
  request: Caller,
  merchantId: string,
  orderId: string,
  principal?: Principal,
) {
  const { orders } = await cardsOf(ctx, request, merchantId, { orderId }, principal);
  if (!orders[0]) throw new HttpException(panelErrors.order());
  return orders[0];
}

/** The card of an order for the boards of its store (pushed with each event), null when unreadable. */
export async function boardCard(
  ctx: PanelContext,
  merchantId: string,
  orderId: string,
): Promise<OrderCard | null> {
  const caller = { id: randomUUID(), log: ctx.base.log } as Caller;
  return storeCard(ctx, caller, merchantId, orderId, PANEL_ITSELF).catch(() => null);
}

/** Orders board (OWNER and STAFF): list, detail with history, actions, test orders (live stream: orders-stream.ts). */
export const orderRoutes: PanelRoutes = (app, ctx) => {
  const staff = requireStore(ctx, 'orders');

  app.get(
    '/panel/api/stores/:merchantId/orders',
    { schema: { params: storeParams, querystring: cardsQuery }, onRequest: staff },
    async (request) => cardsOf(ctx, request, request.store!.merchantId, request.query),
  );

  app.get(
    '/panel/api/stores/:merchantId/orders/:orderId',
    { schema: { params: orderParams }, onRequest: staff },
    async (request) => {
      const { merchantId } = request.store!;
      const { orderId } = request.params;
      const card = await storeCard(ctx, request, merchantId, orderId);
      const r = await upstream(ctx, request, ORDER_OPS.adminGet, {
        params: { orderId },
      });
      if (!ok(r)) throw new HttpException({ status: r.status, body: r.body });
      return { ...r.body, card, nextActions: card.nextActions } satisfies PanelOrderDetail;
    },
  );

  app.post(
    '/panel/api/stores/:merchantId/orders/:orderId/actions/:action',
    {
      schema: {
        params: orderParams.extend({ action: z.enum(ORDER_ACTIONS) }),
        body: z.object({ reason: z.string().max(500).optional() }).nullish(),
      },
      onRequest: staff,
    },
    async (request, reply) => {
      const { orderId, action } = request.params;
      await storeCard(ctx, request, request.store!.merchantId, orderId);
      return relay(
        reply,
        await upstream(ctx, request, ORDER_OPS.adminAction, {
          params: { orderId, action },
          body: request.body ?? undefined,
        }),
      );
    },
  );

  app.post(
    '/panel/api/stores/:merchantId/test-orders',
    {
      schema: { params: storeParams, body: z.object({ type: z.enum(ORDER_TYPES).default('DELIVERY') }) },
      onRequest: staff,
    },
    async (request, reply) => {
      const merchantId = request.store!.merchantId;
      const store = await upstream(ctx, request, CATALOG_OPS.adminGet, {
        params: { merchantId },
      });
      if (!ok(store)) return relay(reply, store);
      if (store.body.test !== true) throw new HttpException(panelErrors.notTestStore());
      const r = await upstream(ctx, request, ORDER_OPS.adminCreate, {
        params: { merchantId },
        body: { type: request.body.type },
      });
      if (!ok(r)) return relay(reply, r);
      return reply.code(r.status).send(await storeCard(ctx, request, merchantId, r.body.id));
    },
  );
};
