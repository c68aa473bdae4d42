import { randomUUID } from 'node:crypto';
import { CATALOG_OPS, ORDER_ACTIONS, ORDER_OPS, ORDER_TYPES, type Principal } from '@od/contracts';
import { HttpException } from '@od/errors';
import { z } from 'zod';
import type { PanelContext, PanelRoutes } from '../context.ts';
import { panelErrors } from '../domain/panel-errors.ts';
import { requireStore } from '../http/guards.ts';
import { BOARD_WINDOW_MS } from '../live-orders.ts';
import { type Caller, ok, PANEL_ITSELF, relay, upstream } from '../upstream.ts';

const storeParams = z.object({ merchantId: z.string() });
const orderParams = storeParams.extend({ orderId: z.string().max(100) });
/** The board lists orders touched in the last BOARD_WINDOW_MS (24 h), at most 200. */
const BOARD_MAX = 200;
const SSE_HEARTBEAT_MS = 15_000;

type AdminOrder = {
  id: string;
  displayId?: string;
  type?: string;
  createdAt?: string;
  situation: string;
  merchant?: { id?: string };
  customer?: { name?: string };
  total?: { orderAmount?: { value?: number } };
};

/** The order when it belongs to the store (orders' admin view), else 404. */
async function storeOrder(
  ctx: PanelContext,
  request: Caller,
  merchantId: string,
  orderId: string,
  principal?: Principal,
) {
  const r = await upstream<AdminOrder>(ctx, request, ORDER_OPS.adminGet, { params: { orderId } }, principal);
  if (r.status === 404 || (ok(r) && r.body.merchant?.id?.toLowerCase() !== merchantId))
    throw new HttpException(panelErrors.order());
  if (!ok(r)) throw new HttpException({ status: r.status, body: r.body });
  return r.body;
}

export type BoardCard = ReturnType<typeof card>;

/** The card of an order for the boards of its store (pushed with each event), null when unreadable. */
export async function boardCard(
  ctx: PanelContext,
  merchantId: string,
  orderId: string,
): Promise<BoardCard | null> {
  const caller = { id: randomUUID(), log: ctx.base.log } as Caller;
  return storeOrder(ctx, caller, merchantId, orderId, PANEL_ITSELF).then(card, () => null);
}

const card = (o: AdminOrder) => ({
  id: o.id,
  displayId: o.displayId ?? o.id.slice(0, 8),
  type: o.type ?? null,
  situation: o.situation,
  createdAt: o.createdAt ?? null,
  customerName: o.customer?.name ?? null,
  total: o.total?.orderAmount?.value ?? null,
});

/** Orders board (OWNER and STAFF): list, live stream, detail with history, actions, test orders. */
export const orderRoutes: PanelRoutes = (app, ctx) => {
  const staff = requireStore(ctx, 'orders');

  app.get(
    '/panel/api/stores/:merchantId/orders',
    { schema: { params: storeParams }, preHandler: staff },
    async (request) => {
      const ids = await ctx.db.recentOrders(request.store!.merchantId, BOARD_WINDOW_MS, BOARD_MAX);
      const orders = await Promise.all(
        ids.map((id) => storeOrder(ctx, request, request.store!.merchantId, id).catch(() => null)),
      );
      return { orders: orders.filter((o): o is AdminOrder => o !== null).map(card) };
    },
  );

  app.get(
    '/panel/api/stores/:merchantId/orders/:orderId',
    { schema: { params: orderParams }, preHandler: staff },
    async (request) => {
      const o = await storeOrder(ctx, request, request.store!.merchantId, request.params.orderId);
      return { ...o, card: card(o) };
    },
  );

  /** Server-sent events: `order` with { orderId, eventType, createdAt } for each event of the store. */
  app.get(
    '/panel/api/stores/:merchantId/orders-stream',
    { schema: { params: storeParams }, preHandler: staff },
    (request, reply) => {
      reply.hijack();
      const res = reply.raw;
      res.writeHead(200, {
        'Content-Type': 'text/event-stream; charset=utf-8',
        'Cache-Control': 'no-store',
        Connection: 'keep-alive',
        'X-Accel-Buffering': 'no',
      });
      res.write('retry: 1000\n\n');
      const stop = ctx.live.listen(request.store!.merchantId, (e) =>
        res.write(`event: order\ndata: ${JSON.stringify(e)}\n\n`),
      );
      const beat = setInterval(() => res.write(': keep-alive\n\n'), SSE_HEARTBEAT_MS);
      request.raw.on('close', () => {
        clearInterval(beat);
        stop();
      });
    },
  );

  app.post(
    '/panel/api/stores/:merchantId/orders/:orderId/actions/:action',
    {
      schema: {
        params: orderParams.extend({ action: z.enum(ORDER_ACTIONS) }),
        body: z.object({ reason: z.string().max(500).optional() }).nullish(),
      },
      preHandler: staff,
    },
    async (request, reply) => {
      const { orderId, action } = request.params;
      await storeOrder(ctx, request, request.store!.merchantId, orderId);
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
      preHandler: staff,
    },
    async (request, reply) => {
      const merchantId = request.store!.merchantId;
      const store = await upstream<{ test?: boolean }>(ctx, request, CATALOG_OPS.adminGet, {
        params: { merchantId },
      });
      if (!ok(store)) return relay(reply, store);
      if (store.body.test !== true) throw new HttpException(panelErrors.notTestStore());
      const r = await upstream<AdminOrder>(ctx, request, ORDER_OPS.adminCreate, {
        params: { merchantId },
        body: { type: request.body.type },
      });
      return ok(r) ? reply.code(r.status).send(card(r.body)) : relay(reply, r);
    },
  );
};
