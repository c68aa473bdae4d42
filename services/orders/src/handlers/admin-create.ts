import { randomUUID } from 'node:crypto';
import type { RpcHandler } from '@od/bus';
import { orderIntakeSchema } from '@od/contracts';
import { errors, fieldErrorsFromIssues, HttpException } from '@od/errors';
import { merchantSnapshot, type OrdersDeps } from '../core.ts';
import { appendHistory, insertOrder, insertOutbox, nextDisplayId, withTx } from '../db/orders.ts';
import { buildOrder } from '../domain/build.ts';
import { buildEventMessage } from '../domain/envelope.ts';

/**
 * `admin.create` (POST /admin/v1/merchants/{merchantId}/orders): a channel places an order.
 * Without pending payment it enters PENDING and emits CREATED; with `paymentPending` it waits in
 * PENDING_PAYMENT, invisible to integrators, until `admin.payment`.
 * Answer: 201 Order + { situation, channel }.
 */
export function adminCreate(deps: OrdersDeps): RpcHandler {
  return async (req) => {
    const parsed = orderIntakeSchema.safeParse(req.body ?? {});
    if (!parsed.success)
      throw new HttpException(
        errors.adminValidation('Pedido inválido.', fieldErrorsFromIssues(parsed.error.issues)),
      );
    const input = parsed.data;
    const snapshot = await merchantSnapshot(deps, req.params?.merchantId ?? '', req.traceId);
    const id = randomUUID();
    const now = new Date();
    const out = await withTx(deps.pool, async (c) => {
      const displayId = await nextDisplayId(c);
      const { order, situation } = buildOrder(input, snapshot, { id, displayId, now });
      await insertOrder(c, order, { channel: input.channel, situation });
      let eventId: string | undefined;
      if (situation === 'PENDING') {
        eventId = randomUUID();
        await c.query('UPDATE orders SET event_seq = 1 WHERE id = $1', [id]);
        await insertOutbox(
          c,
          buildEventMessage({
            eventId,
            eventType: 'CREATED',
            orderId: id,
            merchantId: order.merchant.id,
            channel: input.channel,
            orderSeq: 1,
            baseUrl: deps.baseUrl,
            createdAt: order.createdAt,
            actor: { kind: 'CHANNEL' },
          }),
          !deps.leads(),
        );
      }
      await appendHistory(c, {
        orderId: id,
        trigger: 'create',
        from: null,
        to: situation,
        actor: { kind: 'CHANNEL' },
        eventId,
        eventType: eventId ? 'CREATED' : undefined,
        detail: { channel: input.channel },
        at: order.createdAt,
      });
      return { order, situation };
    });
    if (out.situation === 'PENDING') deps.wake();
    return { status: 201, body: { ...out.order, situation: out.situation, channel: input.channel } };
  };
}
