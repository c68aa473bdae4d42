import { AckPolicy, type ConsumerMessages, DeliverPolicy, type JsMsg, jetstream } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import { type CredentialsView, ensureOrderEventStream } from '@od/bus';
import type { Names, OrderEventMessage } from '@od/contracts';
import { isGuid } from '@od/contracts';
import type { Pool } from '@od/db';
import type { Logger } from '@od/logger';
import { type IntakeEvent, recordEvents } from './db/deliveries.ts';
import { type Target, targetsFor } from './domain/targets.ts';

const BATCH_MAX = 256;

/** One durable consumer shared by every webhook replica (each message goes to one of them). */
export const CONSUMER_NAME = 'webhook';

export interface Intake {
  stop(): Promise<void>;
}

/**
 * Consumes the order-event stream: stores the event and one delivery per targeted credential in
 * PostgreSQL, and only then acks. A crash before the ack means redelivery; storage is idempotent.
 */
export async function startIntake(o: {
  nc: NatsConnection;
  names: Names;
  pool: Pool;
  log: Logger;
  credentials: CredentialsView;
  onDue: () => void;
}): Promise<Intake> {
  const { names: n, log } = o;
  const jsm = await ensureOrderEventStream(o.nc, n);
  const config = {
    durable_name: CONSUMER_NAME,
    ack_policy: AckPolicy.Explicit,
    deliver_policy: DeliverPolicy.All,
    filter_subject: n.orderEventSubjects,
    ack_wait: 30_000_000_000,
    max_ack_pending: 2_000,
    max_deliver: -1,
  };
  try {
    await jsm.consumers.info(n.orderEventsStream, CONSUMER_NAME);
  } catch {
    await jsm.consumers.add(n.orderEventsStream, config).catch(async (e) => {
      // another replica created it first
      await jsm.consumers.info(n.orderEventsStream, CONSUMER_NAME).catch(() => {
        throw e;
      });
    });
  }
  const consumer = await jetstream(o.nc).consumers.get(n.orderEventsStream, CONSUMER_NAME);
  const messages: ConsumerMessages = await consumer.consume({ max_messages: 256 });
  // Messages arriving while a batch is being stored form the next batch: one commit per batch,
  // acks only after it (at-least-once; storage is idempotent).
  const buffer: JsMsg[] = [];
  let flushing: Promise<void> | null = null;
  const flush = async () => {
    while (buffer.length) {
      const msgs = buffer.splice(0, BATCH_MAX);
      const batch: { m: JsMsg; ev: IntakeEvent; targets: Target[] }[] = [];
      for (const m of msgs) {
        let msg: OrderEventMessage;
        try {
          msg = m.json<OrderEventMessage>();
          if (!isGuid(msg?.envelope?.eventId) || !isGuid(msg.merchantId) || !msg.envelope.createdAt) {
            throw new Error('missing fields');
          }
        } catch (err) {
          log.error({ err, seq: m.seq }, 'unreadable order event: terminated');
          m.term();
          continue;
        }
        const env = msg.envelope;
        batch.push({
          m,
          ev: {
            eventId: env.eventId,
            merchantId: msg.merchantId,
            channel: msg.channel,
            eventType: env.eventType,
            body: JSON.stringify(env),
            createdAt: env.createdAt,
          },
          targets: targetsFor(msg, o.credentials.byMerchant(msg.merchantId)),
        });
      }
      if (!batch.length) continue;
      try {
        const due = await recordEvents(o.pool, batch);
        for (const b of batch) b.m.ack();
        if (due > 0) o.onDue();
      } catch (err) {
        log.error({ err, events: batch.length }, 'storing order events failed: redelivery');
        for (const b of batch) b.m.nak(1_000);
      }
    }
  };
  const kick = (): void => {
    if (flushing) return;
    flushing = flush().finally(() => {
      flushing = null;
      if (buffer.length) kick();
    });
  };
  const loop = (async () => {
    for await (const m of messages) {
      buffer.push(m);
      kick();
    }
    await flushing;
  })();
  return {
    async stop() {
      await messages.close().catch(() => {});
      await loop.catch(() => {});
    },
  };
}
