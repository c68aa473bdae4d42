import path from 'node:path';
import { streamSettings } from '@od/bus';
import type { Config } from '@od/config';
import { RPC } from '@od/contracts';
import { runMain, type ServiceHandle, type StartOptions, startServiceBase } from '@od/runtime';
import { startConfirmationSweep } from './confirmation/sweep.ts';
import { createDb } from './db/client.ts';
import { storeOfOrder } from './db/orders.ts';
import type { OrdersDeps } from './deps.ts';
import { MAX_EVENT_BYTES, MAX_ORDER_DOCUMENT_BYTES, REPLY_OVERHEAD_BYTES } from './domain/limits.ts';
import { adminAction, publicAction } from './handlers/action.ts';
import { adminCancel } from './handlers/admin-cancel.ts';
import { adminCourier } from './handlers/admin-courier.ts';
import { adminCreate } from './handlers/admin-create.ts';
import { adminEdit } from './handlers/admin-edit.ts';
import { adminGet } from './handlers/admin-get.ts';
import { adminPayment } from './handlers/admin-payment.ts';
import { adminStoreSummary } from './handlers/admin-store-summary.ts';
import { cards } from './handlers/cards.ts';
import { getOrder } from './handlers/get.ts';
import {
  adminCancellationDecision,
  adminCancellationRequest,
  odAcceptCancellation,
  odDenyCancellation,
  odRequestCancellation,
  publicHandshake,
} from './handlers/handshake.ts';
import { listOrdersHandler } from './handlers/list.ts';
import { tracking, validateCode } from './handlers/od-delivery.ts';
import { registerOutboxGauges } from './outbox/metrics.ts';
import { type Relay, startRelay } from './outbox/relay.ts';

const MIGRATIONS = path.join(import.meta.dirname, '..', 'prisma', 'migrations');

export interface OrdersHandle extends ServiceHandle {
  relay: Relay;
}

export async function start(config: Config, opts: StartOptions = {}): Promise<OrdersHandle> {
  const base = await startServiceBase('orders', config, opts, { migrationsDir: MIGRATIONS, poolSize: 20 });
  const maxPayload = base.nc.info?.max_payload ?? 0;
  if (maxPayload < MAX_ORDER_DOCUMENT_BYTES + REPLY_OVERHEAD_BYTES || maxPayload < MAX_EVENT_BYTES)
    base.log.error(
      { maxPayload, MAX_ORDER_DOCUMENT_BYTES, MAX_EVENT_BYTES },
      'NATS max_payload is below the orders size limits: the largest orders cannot be served',
    );
  base.onClose(registerOutboxGauges(base.pool));
  const relay = await startRelay({
    databaseUrl: config.DATABASE_URL,
    schema: 'orders',
    nc: base.nc,
    names: base.names,
    stream: streamSettings(config),
    log: base.log,
    retentionMs: config.ORDER_OUTBOX_RETENTION,
  });
  const deps: OrdersDeps = {
    pool: base.pool,
    nc: base.nc,
    names: base.names,
    rpc: base.rpc,
    baseUrl: config.PUBLIC_BASE_URL,
    wake: () => relay.wake(),
    publishNow: (row) => relay.publishNow(row),
    leads: () => relay.isLeader(),
  };
  base.serve(
    RPC.orders,
    {
      get: getOrder(deps),
      list: listOrdersHandler(deps),
      action: publicAction(deps),
      adminCreate: adminCreate(deps),
      adminGet: adminGet(deps, createDb(base.pool)),
      cards: cards(deps),
      adminStoreSummary: adminStoreSummary(base.pool),
      adminAction: adminAction(deps),
      adminPayment: adminPayment(deps),
      adminCancel: adminCancel(deps),
      adminEdit: adminEdit(deps),
      adminCourier: adminCourier(deps),
      handshake: publicHandshake(deps),
      odRequestCancellation: odRequestCancellation(deps),
      odAcceptCancellation: odAcceptCancellation(deps),
      odDenyCancellation: odDenyCancellation(deps),
      validateCode: validateCode(deps),
      tracking: tracking(deps),
      adminCancellationRequest: adminCancellationRequest(deps),
      adminCancellationDecision: adminCancellationDecision(deps),
    },
    { storeOf: { orderId: storeOfOrder(base.pool) } },
  );
  const sweep = startConfirmationSweep(deps, {
    intervalMs: config.ORDER_CONFIRM_SWEEP_INTERVAL,
    batch: 100,
    log: base.log,
  });
  return {
    relay,
    async stop() {
      await sweep.stop();
      await relay.stop();
      await base.close();
    },
  };
}

export const main = () => runMain('orders', start);
