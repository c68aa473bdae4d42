import {
  isGuid,
  type OpHandler,
  WEBHOOK_DELIVERY_STATUSES,
  type WEBHOOK_OPS,
  type WebhookDeliveryStatus,
  type WebhookDeliveryView,
} from '@od/contracts';
import { errors, HttpException } from '@od/errors';
import type { Delivery } from '../db/generated/client.ts';
import { type HandlerContext, iso, onePage, pageRequest } from './context.ts';

export function deliveryView(d: Delivery): WebhookDeliveryView {
  return {
    eventId: d.eventId,
    eventType: d.eventType,
    status: d.status as WebhookDeliveryStatus,
    round: d.round,
    attempts: d.attempts,
    nextAttemptAt: d.status === 'PENDING' ? iso(d.nextAttemptAt) : null,
    lastStatusCode: d.lastStatusCode,
    lastError: d.lastError,
    skipReason: d.skipReason,
    createdAt: iso(d.createdAt)!,
    updatedAt: iso(d.updatedAt)!,
    deliveredAt: iso(d.deliveredAt),
  };
}

/**
 * GET /admin/v1/credentials/{clientId}/webhook-deliveries: newest first; filters `status`,
 * `eventType`, `eventIds` (comma separated, at most 200: the deliveries of a page of events).
 */
export const deliveriesHandler =
  (ctx: HandlerContext): OpHandler<typeof WEBHOOK_OPS.deliveries> =>
  async (req) => {
    const { cred, limit } = pageRequest(ctx, req);
    const status = req.query?.status;
    if (status !== undefined && !WEBHOOK_DELIVERY_STATUSES.includes(status as WebhookDeliveryStatus)) {
      throw new HttpException(
        errors.adminValidation('status inválido.', { status: [WEBHOOK_DELIVERY_STATUSES.join(' | ')] }),
      );
    }
    const cursor = req.query?.cursor;
    if (cursor !== undefined && !isGuid(cursor)) {
      throw new HttpException(errors.adminValidation('cursor inválido.', { cursor: ['invalid'] }));
    }
    const eventType = req.query?.eventType;
    const eventIds = req.query?.eventIds?.split(',').filter(Boolean);
    if (eventIds && (eventIds.length > 200 || !eventIds.every(isGuid))) {
      throw new HttpException(
        errors.adminValidation('eventIds inválido.', { eventIds: ['200 ids at most'] }),
      );
    }
    const rows = await ctx.db.delivery.findMany({
      where: {
        clientId: cred.clientId,
        ...(status ? { status: status as string } : {}),
        ...(eventType ? { eventType } : {}),
        ...(eventIds ? { eventId: { in: eventIds.map((id) => id.toLowerCase()) } } : {}),
      },
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      take: limit + 1,
      ...(cursor ? { cursor: { id: cursor as string }, skip: 1 } : {}),
    });
    const { page, nextCursor } = onePage(rows, limit, (last) => last.id);
    return { status: 200, body: { items: page.map(deliveryView), nextCursor } };
  };
