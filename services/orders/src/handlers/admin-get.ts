import { isGuid, jsonBytes, type OpHandler, type ORDER_OPS } from '@od/contracts';
import { errors } from '@od/errors';
import type { Db } from '../db/client.ts';
import type { OrdersDeps } from '../deps.ts';
import { ADMIN_VIEW_MAX_BYTES, HISTORY_PAGE_MAX_ENTRIES, historyPageLength } from '../domain/limits.ts';

/**
 * `admin.get` (GET /admin/v1/orders/{orderId}[?historyAfter=cursor]): Order + { situation, channel,
 * deliveryCode, cancellationRequest (Open Delivery), confirmBy, history } in any state (unpaid orders
 * included). History comes oldest first, one page at a time (at most 200 entries, and what the
 * document leaves of the bus's 1 MiB): when more remain,
 * `historyNextCursor` is the `historyAfter` of the next page (absent on the last page). Cold path.
 */
export function adminGet(_deps: OrdersDeps, db: Db): OpHandler<typeof ORDER_OPS.adminGet> {
  return async (req) => {
    const orderId = req.params?.orderId;
    if (!isGuid(orderId)) return errors.orderNotFound();
    const after = req.query?.historyAfter;
    const order = await db.order.findUnique({
      where: { id: orderId },
      select: {
        document: true,
        situation: true,
        channel: true,
        deliveryCode: true,
        cancellationRequest: true,
        deadline: { select: { confirmBy: true } },
        history: {
          where: after ? { id: { gt: BigInt(after) } } : undefined,
          orderBy: { id: 'asc' },
          take: HISTORY_PAGE_MAX_ENTRIES + 1,
        },
      },
    });
    if (!order) return errors.orderNotFound();
    const entries = order.history.map((h) => ({
      trigger: h.trigger,
      from: h.fromSituation,
      to: h.toSituation,
      actorKind: h.actorKind,
      actorClientId: h.actorClientId,
      // a panel click: the merchant user who clicked (null for support actions and every other actor)
      actorUserId: h.actorUserId,
      actorEmail: h.actorEmail,
      eventId: h.eventId,
      eventType: h.eventType,
      detail: h.detail,
      createdAt: h.createdAt.toISOString(),
    }));
    // Open Delivery: the code the customer tells the courier (validateCode), the open request
    const od = { deliveryCode: order.deliveryCode, cancellationRequest: order.cancellationRequest };
    const budget = ADMIN_VIEW_MAX_BYTES - jsonBytes(order.document) - jsonBytes(od);
    const n = historyPageLength(entries.map(jsonBytes), budget, HISTORY_PAGE_MAX_ENTRIES);
    return {
      status: 200,
      body: {
        ...(order.document as Record<string, unknown>),
        situation: order.situation,
        channel: order.channel,
        // while PENDING: the platform cancels the order then if nobody confirmed it (else null)
        confirmBy: order.deadline?.confirmBy.toISOString() ?? null,
        ...od,
        history: entries.slice(0, n),
        ...(n < entries.length ? { historyNextCursor: String(order.history[n - 1].id) } : {}),
      },
    };
  };
}
