import type { JetStreamManager } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import { type EventConsumer, startEventConsumer } from '@od/bus';
import { FEED_RETENTION_DAYS, type Names } from '@od/contracts';
import type { Pool } from '@od/db';
import type { Logger } from '@od/logger';
import { releaseExpiredHolds, storeEvents } from './db/queries.ts';
import type { AnnouncePending } from './feed-pending.ts';

/** One durable pull consumer per deployment: every replica pulls from it, each message goes to one. */
export const FEED_CONSUMER = 'feed';

/**
 * How long an event waits for its order's missing predecessor before it is served anyway. Longer
 * than the consumer's redelivery after a crash (ack wait 10 s) and than the store retries' backoff
 * while PostgreSQL is down (up to 30 s): only an event set aside or very late is given up on.
 */
export const ORDER_HOLD_MS = 60_000;
const RELEASE_EVERY_MS = 5_000;

/**
 * Order events -> feeds, through @od/bus's event consumer: a batch (up to 100) is stored in one
 * transaction (event once + one feed entry per recipient) and only then acknowledged. An event that
 * arrives before an earlier event of its order is held (db/queries.ts), and released here once the
 * hold has lasted ORDER_HOLD_MS.
 */
export async function startFeedConsumer(o: {
  nc: NatsConnection;
  jsm: JetStreamManager;
  names: Names;
  pool: Pool;
  log: Logger;
  orderHoldMs?: number;
  /** after each commit that can make entries pollable (feed-pending.ts) */
  announce?: AnnouncePending;
}): Promise<EventConsumer> {
  const holdMs = o.orderHoldMs ?? ORDER_HOLD_MS;
  const consumer = await startEventConsumer({
    ...o,
    durable: FEED_CONSUMER,
    maxEventAgeMs: FEED_RETENTION_DAYS * 86_400_000,
    batchSize: 100,
    // short: after a crash, a replica's unacknowledged messages come back to another within 10 s
    ackWaitMs: 10_000,
    store: async (events) => {
      await storeEvents(o.pool, events);
      // also when nothing was added: a redelivery after a crash before this line announces again
      o.announce?.(events.map((e) => e.merchantId.toLowerCase()));
    },
  });
  const release = async () => {
    try {
      const n = await releaseExpiredHolds(o.pool, holdMs);
      if (n) o.announce?.('all');
      if (n)
        o.log.warn(
          { events: n, holdMs },
          'events served out of order: an earlier event of their order never came',
        );
    } catch (err) {
      o.log.error({ err }, 'releasing expired order holds failed');
    }
  };
  const timer = setInterval(release, Math.min(RELEASE_EVERY_MS, holdMs));
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await consumer.stop();
    },
  };
}
