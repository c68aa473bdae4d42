import type { JetStreamManager } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import { type EventConsumer, startEventConsumer } from '@od/bus';
import { FEED_RETENTION_DAYS, type Names } from '@od/contracts';
import type { Pool } from '@od/db';
import type { Logger } from '@od/logger';
import { storeEvents } from './db/queries.ts';

/** One durable pull consumer per deployment: every replica pulls from it, each message goes to one. */
export const FEED_CONSUMER = 'feed';

/**
 * Order events -> feeds, through @od/bus's event consumer: a batch (up to 100) is stored in one
 * transaction (event once + one feed entry per recipient) and only then acknowledged.
 */
export function startFeedConsumer(o: {
  nc: NatsConnection;
  jsm: JetStreamManager;
  names: Names;
  pool: Pool;
  log: Logger;
}): Promise<EventConsumer> {
  return startEventConsumer({
    ...o,
    durable: FEED_CONSUMER,
    maxEventAgeMs: FEED_RETENTION_DAYS * 86_400_000,
    batchSize: 100,
    // short: after a crash, a replica's unacknowledged messages come back to another within 10 s
    ackWaitMs: 10_000,
    store: async (events) => {
      await storeEvents(o.pool, events);
    },
  });
}
