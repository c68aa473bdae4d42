import { isGuid, type OpHandler, type ORDER_OPS } from '@od/contracts';
import { errors } from '@od/errors';
import type { OrdersDeps } from '../core.ts';
import type { Db } from '../db/client.ts';

/**
 * `admin.get` (GET /admin/v1/orders/{orderId}): Order + { situation, channel, history } in any state
 * (unpaid orders included). Cold path: Prisma.
 */
export function adminGet(_deps: OrdersDeps, db: Db): OpHandler<typeof ORDER_OPS.adminGet> {
  return async (req) => {
    const orderId = req.params?.orderId;
    if (!isGuid(orderId)) return errors.orderNotFound();
    const order = await db.order.findUnique({
      where: { id: orderId },
      select: {
        document: true,
        situation: true,
        channel: true,
        history: { orderBy: { id: 'asc' } },
      },
    });
    if (!order) return errors.orderNotFound();
    return {
      status: 200,
      body: {
        ...(order.document as Record<string, unknown>),
        situation: order.situation,
        channel: order.channel,
        history: order.history.map((h) => ({
          trigger: h.trigger,
          from: h.fromSituation,
          to: h.toSituation,
          actorKind: h.actorKind,
          actorClientId: h.actorClientId,
          eventId: h.eventId,
          eventType: h.eventType,
          detail: h.detail,
          createdAt: h.createdAt.toISOString(),
        })),
      },
    };
  };
}
