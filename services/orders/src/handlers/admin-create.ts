import { randomUUID } from 'node:crypto';
import type { OpHandler, ORDER_OPS } from '@od/contracts';
import { prefetchSnapshot } from '../catalog.ts';
import { nextDisplayId } from '../db/orders.ts';
import type { OrdersDeps } from '../deps.ts';
import { buildOrder } from '../domain/build.ts';
import { assertStoreOpen, storeDayOf } from '../domain/intake.ts';
import { idemOf, writeOrder } from '../write.ts';
import { panelActor } from './action.ts';

/**
 * `admin.create` (POST /admin/v1/merchants/{merchantId}/orders): a channel places an order.
 * Without pending payment it enters PENDING and emits CREATED; with `paymentPending` it waits in
 * PENDING_PAYMENT, invisible to integrators, until `admin.payment`. With an Idempotency-Key the
 * same order comes back for the same key (never a second order). A store (or service type) closed,
 * paused or outside its hours at the order's time answers 409 store_closed and nothing is created.
 * The order's confirmation deadline (the store's timeout) starts when it enters PENDING.
 * Answer: 201 Order + { situation, channel }.
 */
export function adminCreate(deps: OrdersDeps): OpHandler<typeof ORDER_OPS.adminCreate> {
  return async (req) => {
    const input = req.body;
    const snapshot = await prefetchSnapshot(deps, req.params?.merchantId ?? '', req.traceId);
    return writeOrder(deps, {
      scope: 'new',
      // a panel test order names the merchant user who placed it
      actor: req.caller.kind === 'merchantUser' ? panelActor(req.caller) : { kind: 'CHANNEL' },
      idem: idemOf(req),
      plan: async (c) => {
        const store = snapshot();
        const now = new Date();
        const displayId = await nextDisplayId(c);
        const { order, situation } = buildOrder(input, store, { id: randomUUID(), displayId, now });
        const at = order.schedule ? new Date(order.schedule.scheduledDateTimeStart) : now;
        assertStoreOpen(store, order.type, at);
        return {
          change: {
            create: {
              order,
              situation,
              channel: input.channel,
              confirmTimeoutSeconds: storeDayOf(store).confirmationTimeoutSeconds,
            },
            event: situation === 'PENDING' ? { type: 'CREATED' } : undefined,
            history: { trigger: 'create', detail: { channel: input.channel } },
          },
          answer: () => ({ status: 201, body: { ...order, situation, channel: input.channel } }),
        };
      },
    });
  };
}
