import type { NatsConnection } from '@nats-io/transport-node';
import {
  type CredentialsView,
  type EventConsumer,
  ensureOrderEventStream,
  type OrderEventStreamSettings,
  startEventConsumer,
} from '@od/bus';
import { FEED_RETENTION_DAYS, type Names } from '@od/contracts';
import type { Pool } from '@od/db';
import type { Logger } from '@od/logger';
import { recordEvents } from './db/deliveries.ts';
import { targetsFor } from './domain/targets.ts';

/** One durable consumer shared by every webhook replica (each message goes to one of them). */
export const CONSUMER_NAME = 'webhook';

/**
 * Order events -> deliveries, through @od/bus's event consumer: a batch (up to 256) and one delivery
 * per targeted credential are stored in one statement and only then acknowledged. Events older than
 * the feed retention are never delivered (a recreated consumer cannot resurrect them).
 */
export async function startIntake(o: {
  nc: NatsConnection;
  names: Names;
  stream: OrderEventStreamSettings;
  pool: Pool;
  log: Logger;
  credentials: CredentialsView;
  onDue: () => void;
}): Promise<EventConsumer> {
  const jsm = await ensureOrderEventStream(o.nc, o.names, o.stream, o.log);
  return startEventConsumer({
    nc: o.nc,
    jsm,
    names: o.names,
    log: o.log,
    pool: o.pool,
    durable: CONSUMER_NAME,
    maxEventAgeMs: FEED_RETENTION_DAYS * 86_400_000,
    batchSize: 256,
    maxAckPending: 2_000,
    store: async (events) => {
      const batch = events.map((ev) => ({
        ev,
        targets: targetsFor(ev, o.credentials.byMerchant(ev.merchantId)),
      }));
      if ((await recordEvents(o.pool, batch)) > 0) o.onDue();
    },
  });
}
