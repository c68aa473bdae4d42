import type { Logger } from '@od/logger';
import { recordOrderExpired } from '@od/telemetry';
import { dropStaleDeadline, overdueOrders } from '../db/orders.ts';
import type { OrdersDeps } from '../deps.ts';
import { transitionPlan } from '../domain/plans.ts';
import { CANCELLATION_CODES } from '../domain/state-machine.ts';
import { writeOrder } from '../write.ts';

export const EXPIRED_REASON = 'Pedido cancelado pela plataforma: a loja não o confirmou no tempo limite.';

export interface SweepOptions {
  /** how often the overdue orders are looked for (ORDER_CONFIRM_SWEEP_MS) */
  intervalMs: number;
  /** orders cancelled per round at most; a full round starts the next one at once */
  batch: number;
  log: Logger;
}

/**
 * No order waits forever: every replica looks for orders past their deadline (`order_deadlines`,
 * rows of PENDING orders only) and cancels each through the one write path (CANCELLED event,
 * `OTHER_CANCELLATION_REASON`, actor PLATFORM, in the same transaction as the order row and the
 * deletion of its deadline). Exactly once whatever the number of replicas: the row is
 * locked `FOR UPDATE SKIP LOCKED` (a replica already on it is not waited for) and the state machine's
 * `expire` acts on PENDING only (an order confirmed or cancelled meanwhile is left alone). The
 * schedule is a table: a restart or a crash loses nothing.
 */
export function startConfirmationSweep(deps: OrdersDeps, o: SweepOptions): { stop(): Promise<void> } {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  const cancellation = { reason: EXPIRED_REASON, code: CANCELLATION_CODES.merchant };

  async function round(): Promise<number> {
    const ids = await overdueOrders(deps.pool, o.batch);
    for (const orderId of ids) {
      if (stopped) break;
      const r = await writeOrder(deps, {
        scope: { orderId, hidePendingPayment: false, skipLocked: true },
        actor: { kind: 'PLATFORM' },
        plan: (locked) => transitionPlan(locked, 'expire', cancellation),
      });
      const outcome = r.status === 202 ? (r.body as { status?: string }).status : undefined;
      if (outcome === 'accepted') recordOrderExpired();
      // not PENDING any more (a change by the previous release kept its row): the row goes
      else if (outcome === 'already_applied') await dropStaleDeadline(deps.pool, orderId);
    }
    return ids.length;
  }

  const tick = () => {
    running = round()
      .then((n) => schedule(n >= o.batch ? 0 : o.intervalMs))
      .catch((err) => {
        o.log.error({ err }, 'confirmation sweep failed; retrying');
        schedule(o.intervalMs);
      });
  };
  const schedule = (ms: number) => {
    if (!stopped) timer = setTimeout(tick, ms);
  };
  schedule(o.intervalMs);

  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
