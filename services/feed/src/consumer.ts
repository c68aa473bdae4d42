import {
  AckPolicy,
  type ConsumerMessages,
  DeliverPolicy,
  type JetStreamManager,
  type JsMsg,
  jetstream,
} from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import type { Names } from '@od/contracts';
import type { Pool } from '@od/db';
import type { Logger } from '@od/logger';
import { storeEvents } from './db/queries.ts';
import { parseEventMessage, type StoredEvent } from './domain/rules.ts';

/** One durable pull consumer per deployment: every replica pulls from it, each message goes to one. */
export const FEED_CONSUMER = 'feed';
const ACK_WAIT_MS = 10_000;
const MAX_ACK_PENDING = 1000;
const BATCH = 100;

export interface EventConsumer {
  stop(): Promise<void>;
}

export async function ensureFeedConsumer(jsm: JetStreamManager, n: Names): Promise<void> {
  const config = {
    durable_name: FEED_CONSUMER,
    ack_policy: AckPolicy.Explicit,
    deliver_policy: DeliverPolicy.All,
    ack_wait: ACK_WAIT_MS * 1_000_000,
    max_ack_pending: MAX_ACK_PENDING,
    max_deliver: -1,
  };
  try {
    await jsm.consumers.add(n.orderEventsStream, config);
  } catch {
    // exists with another config (older release) or created concurrently by another replica
    const { durable_name: _, deliver_policy: __, ...updatable } = config;
    await jsm.consumers.update(n.orderEventsStream, FEED_CONSUMER, updatable).catch(async (e) => {
      await jsm.consumers.info(n.orderEventsStream, FEED_CONSUMER).catch(() => {
        throw e;
      });
    });
  }
}

/**
 * Pulls order events and stores them (event once + one feed entry per receiving credential) BEFORE
 * acknowledging the JetStream message. A crash at any point means redelivery, and storing is
 * idempotent by eventId, so nothing is lost and nothing is doubled. Messages are handled in batches,
 * one transaction per batch; a batch that fails is retried message by message.
 */
export async function startEventConsumer(
  nc: NatsConnection,
  n: Names,
  pool: Pool,
  log: Logger,
): Promise<EventConsumer> {
  const js = jetstream(nc);
  const consumer = await js.consumers.get(n.orderEventsStream, FEED_CONSUMER);
  const queue: JsMsg[] = [];
  let wake: (() => void) | undefined;
  let stopped = false;
  const messages: ConsumerMessages = await consumer.consume({
    max_messages: BATCH * 2,
    callback: (m) => {
      queue.push(m);
      wake?.();
    },
  });

  const worker = (async () => {
    while (!stopped) {
      if (queue.length === 0) {
        await new Promise<void>((r) => {
          wake = r;
        });
        wake = undefined;
        continue;
      }
      const batch = queue.splice(0, BATCH);
      await handleBatch(batch, pool, log);
    }
  })();

  return {
    async stop() {
      stopped = true;
      wake?.();
      await messages.close().catch(() => {});
      await worker.catch(() => {});
      // messages still queued were never acked: JetStream redelivers them
    },
  };
}

async function handleBatch(batch: JsMsg[], pool: Pool, log: Logger): Promise<void> {
  const good: { msg: JsMsg; event: StoredEvent }[] = [];
  for (const msg of batch) {
    let parsed: ReturnType<typeof parseEventMessage>;
    try {
      parsed = parseEventMessage(msg.json());
    } catch {
      parsed = { error: 'not JSON' };
    }
    if ('error' in parsed) {
      // a message that can never be stored: kept out of the way, loudly
      log.error(
        { seq: msg.seq, subject: msg.subject, reason: parsed.error },
        'unreadable order event dropped',
      );
      msg.term(parsed.error);
      continue;
    }
    good.push({ msg, event: parsed });
  }
  if (good.length === 0) return;
  try {
    await storeEvents(
      pool,
      good.map((g) => g.event),
    );
    for (const g of good) g.msg.ack();
    return;
  } catch (err) {
    if (good.length === 1) {
      log.error({ err, eventId: good[0].event.eventId }, 'storing order event failed; redelivery');
      good[0].msg.nak(1000);
      return;
    }
    log.warn({ err }, 'storing a batch failed; retrying one by one');
  }
  for (const g of good) {
    try {
      await storeEvents(pool, [g.event]);
      g.msg.ack();
    } catch (err) {
      log.error({ err, eventId: g.event.eventId }, 'storing order event failed; redelivery');
      g.msg.nak(1000);
    }
  }
}
