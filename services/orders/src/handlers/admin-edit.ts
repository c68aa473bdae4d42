import type { RpcHandler } from '@od/bus';
import { orderEditSchema } from '@od/contracts';
import { errors, fieldErrorsFromIssues, HttpException } from '@od/errors';
import { emitInTx, lockVisible, merchantSnapshot, type OrdersDeps } from '../core.ts';
import { appendHistory, readDocument, rewriteOrder, withTx } from '../db/orders.ts';
import { editOrder } from '../domain/build.ts';

/**
 * `admin.edit` (PATCH /admin/v1/orders/{orderId}): content edit, same rules as intake, emits
 * MODIFIED (none while PENDING_PAYMENT: the order does not exist for integrators yet).
 * DONE and CANCELLED orders cannot be edited (422 invalid_transition).
 */
export function adminEdit(deps: OrdersDeps): RpcHandler {
  return async (req) => {
    const parsed = orderEditSchema.safeParse(req.body ?? {});
    if (!parsed.success)
      throw new HttpException(
        errors.adminValidation('Edição inválida.', fieldErrorsFromIssues(parsed.error.issues)),
      );
    const edit = parsed.data;
    const orderId = req.params?.orderId ?? '';
    const needsMenu = edit.items?.some((i) => 'itemId' in i) ?? false;
    let emitted = false;
    const out = await withTx(deps.pool, async (c) => {
      const o = await lockVisible(c, orderId, { hidePendingPayment: false });
      if (o.situation === 'DONE' || o.situation === 'CANCELLED')
        throw new HttpException(errors.invalidTransition(o.situation, 'edit'));
      const current = await readDocument(c, o.id);
      const snapshot = needsMenu
        ? await merchantSnapshot(deps, o.merchantId, req.traceId)
        : { merchant: current.merchant, test: current.test, menu: null };
      const next = editOrder(current, edit, snapshot);
      const now = new Date().toISOString();
      await rewriteOrder(c, next, now);
      const changed = Object.keys(edit);
      if (o.situation === 'PENDING_PAYMENT') {
        await appendHistory(c, {
          orderId: o.id,
          trigger: 'edit',
          from: o.situation,
          to: o.situation,
          actor: { kind: 'PANEL' },
          detail: { changed },
          at: now,
        });
      } else {
        await emitInTx(deps, c, o, { eventType: 'MODIFIED', actor: { kind: 'PANEL' }, trigger: 'edit', now });
        emitted = true;
      }
      return { ...next, situation: o.situation, channel: o.channel };
    });
    if (emitted) deps.wake();
    return { status: 200, body: out };
  };
}
