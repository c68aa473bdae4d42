import { AckPolicy, type ConsumerMessages, DeliverPolicy, jetstream } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import { ensureOrderEventStream, type CredentialsView } from '@od/bus';
import type { Names, OrderEventMessage } from '@od/contracts';
import { isGuid } from '@od/contracts';
import type { Pool } from '@od/db';
import type { Logger } from '@od/logger';
import { recordEvent } from './db/deliveries.ts';
import { targetsFor } from './domain/targets.ts';

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
  const loop = (async () => {
    for await (const m of messages) {
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
      try {
        const env = msg.envelope;
        const targets = targetsFor(msg, o.credentials.byMerchant(msg.merchantId));
        const due = await recordEvent(
          o.pool,
          {
            eventId: env.eventId,
            merchantId: msg.merchantId,
            channel: msg.channel,
            eventType: env.eventType,
            body: JSON.stringify(env),
            createdAt: env.createdAt,
          },
          targets,
        );
        m.ack();
        if (due > 0) o.onDue();
      } catch (err) {
        log.error({ err, eventId: msg.envelope.eventId }, 'storing order event failed: redelivery');
        m.nak(1_000);
      }
    }
  })();
  return {
    async stop() {
      await messages.close().catch(() => {});
      await loop.catch(() => {});
    },
  };
}
