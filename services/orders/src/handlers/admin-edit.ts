import type { OpHandler, ORDER_OPS, Order } from '@od/contracts';
import { errors, HttpException } from '@od/errors';
import { prefetchSnapshot } from '../catalog.ts';
import { readDocument, storeOfOrder } from '../db/orders.ts';
import { notFound, type OrdersDeps } from '../deps.ts';
import { editOrder } from '../domain/build.ts';
import { idemOf, writeOrder } from '../write.ts';

/**
 * `admin.edit` (PATCH /admin/v1/orders/{orderId}): content edit, same rules as intake, emits
 * MODIFIED (none while PENDING_PAYMENT: the order does not exist for integrators yet).
 * DONE and CANCELLED orders cannot be edited (422 invalid_transition).
 */
export function adminEdit(deps: OrdersDeps): OpHandler<typeof ORDER_OPS.adminEdit> {
  return async (req) => {
    const edit = req.body;
    const orderId = req.params?.orderId ?? '';
    const needsMenu = edit.items?.some((i) => 'itemId' in i) ?? false;
    // an order's store never changes: read unlocked, so the catalog is asked before the lock is taken
    const merchantId = needsMenu ? await storeOfOrder(deps.pool)(orderId) : null;
    const fetched = merchantId ? await prefetchSnapshot(deps, merchantId, req.traceId) : undefined;
    return writeOrder(deps, {
      scope: { orderId, hidePendingPayment: false },
      actor: { kind: 'PANEL' },
      idem: idemOf(req),
      plan: async (o, c) => {
        if (o.situation === 'DONE' || o.situation === 'CANCELLED')
          throw new HttpException(errors.invalidTransition(o.situation, 'edit'));
        const current = await readDocument<Order>(c, o.id);
        if (needsMenu && !fetched) throw notFound(); // deleted between the read and the lock
        const snapshot = fetched ? fetched() : { merchant: current.merchant, test: current.test, menu: null };
        const next = editOrder(current, edit, snapshot, o.channel);
        return {
          change: {
            document: next,
            event: o.situation === 'PENDING_PAYMENT' ? undefined : { type: 'MODIFIED' },
            history: { trigger: 'edit', detail: { changed: Object.keys(edit) } },
          },
          answer: () => ({ status: 200, body: { ...next, situation: o.situation, channel: o.channel } }),
        };
      },
    });
  };
}
