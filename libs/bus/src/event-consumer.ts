import {
  AckPolicy,
  type ConsumerConfig,
  type ConsumerMessages,
  DeliverPolicy,
  type JetStreamManager,
  type JsMsg,
  jetstream,
} from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import type { Names } from '@od/contracts';
import type { Logger } from '@od/logger';
import { observeMessage } from '@od/telemetry';
import { type ParsedOrderEvent, parseOrderEvent } from './order-events.ts';

/** The part of a pg pool the helper uses (the service's own pool, schema on its search_path). */
export interface Queryable {
  query(text: string, values: unknown[]): Promise<unknown>;
}

export interface EventConsumerOptions {
  nc: NatsConnection;
  jsm: JetStreamManager;
  names: Names;
  log: Logger;
  /** durable name: one consumer per service, shared by every replica (each message goes to one) */
  durable: string;
  /**
   * Events created longer ago than this are acknowledged without being stored, and a new durable
   * consumer starts at now minus this: nothing older than the feed retention ever comes back.
   */
  maxEventAgeMs: number;
  /** stores a batch in ONE transaction, idempotently by eventId; throws to have it redelivered */
  store(events: ParsedOrderEvent[]): Promise<void>;
  /** the service's pool: set-aside messages are recorded in its `set_aside_events` table */
  pool: Queryable;
  batchSize?: number;
  ackWaitMs?: number;
  maxAckPending?: number;
  /** deliveries of a message whose storing keeps failing before it is set aside */
  maxDeliveries?: number;
}

export interface EventConsumer {
  stop(): Promise<void>;
}

export const EVENT_CONSUMER_DEFAULTS = {
  batchSize: 100,
  ackWaitMs: 30_000,
  maxAckPending: 1_000,
  maxDeliveries: 8,
};

/** Delay before redelivering a message whose storing failed: 1, 2, 4 ... 30 s. */
export const redeliveryDelayMs = (deliveryCount: number): number =>
  Math.min(30_000, 1000 * 2 ** Math.max(0, deliveryCount - 1));

/**
 * Creates the durable pull consumer if missing (starting at now - maxEventAge, never at the
 * stream's beginning) or updates what JetStream lets change; the start point of an existing
 * consumer cannot change and does not matter (it resumes from its acknowledgment floor).
 */
export async function ensureDurable(
  jsm: JetStreamManager,
  n: Names,
  o: Pick<EventConsumerOptions, 'durable' | 'maxEventAgeMs' | 'ackWaitMs' | 'maxAckPending'>,
): Promise<void> {
  const updatable = {
    ack_wait: (o.ackWaitMs ?? EVENT_CONSUMER_DEFAULTS.ackWaitMs) * 1_000_000,
    max_ack_pending: o.maxAckPending ?? EVENT_CONSUMER_DEFAULTS.maxAckPending,
    // unbounded at the server: the bound is ours, with a record (maxDeliveries, set_aside_events)
    max_deliver: -1,
  };
  const current = await jsm.consumers.info(n.orderEventsStream, o.durable).catch(() => null);
  if (current) {
    const cfg = current.config as ConsumerConfig;
    if (Object.entries(updatable).some(([k, v]) => cfg[k as keyof ConsumerConfig] !== v))
      await jsm.consumers.update(n.orderEventsStream, o.durable, updatable);
    return;
  }
  await jsm.consumers
    .add(n.orderEventsStream, {
      durable_name: o.durable,
      ack_policy: AckPolicy.Explicit,
      deliver_policy: DeliverPolicy.StartTime,
      opt_start_time: new Date(Date.now() - o.maxEventAgeMs).toISOString(),
      ...updatable,
    })
    .catch(async (e) => {
      // another replica created it first
      await jsm.consumers.info(n.orderEventsStream, o.durable).catch(() => {
        throw e;
      });
    });
}

/**
 * Pulls order events and hands them to `store` in batches, acknowledging only after it returns
 * (store-then-ack: a crash anywhere means redelivery, and storing again changes nothing).
 * - unreadable message: set aside at once;
 * - event older than maxEventAge: acknowledged, not stored (it would resurrect a pruned event);
 * - a failing batch is retried message by message; a failing message is redelivered with backoff
 *   and set aside at its maxDeliveries-th failure. Setting aside = a row in `set_aside_events`
 *   (consumer, stream sequence, subject, deliveries, reason, raw payload) and then `term`; if that row
 *   cannot be written (database down) the message is redelivered instead, so nothing is dropped
 *   without a record.
 */
export async function startEventConsumer(o: EventConsumerOptions): Promise<EventConsumer> {
  // every tunable left unset takes its value from the defaults table
  const opts = { ...o } as Resolved;
  for (const k of Object.keys(EVENT_CONSUMER_DEFAULTS) as (keyof typeof EVENT_CONSUMER_DEFAULTS)[])
    opts[k] ??= EVENT_CONSUMER_DEFAULTS[k];
  await ensureDurable(o.jsm, o.names, opts);
  const queue: JsMsg[] = [];
  let wake: (() => void) | undefined;
  let stopped = false;
  const open = async (): Promise<ConsumerMessages> => {
    const consumer = await jetstream(o.nc).consumers.get(o.names.orderEventsStream, o.durable);
    const current = await consumer.consume({
      max_messages: opts.batchSize * 2,
      callback: (m) => {
        if (stopped) return m.nak(); // arrived while stopping: straight back to another replica
        queue.push(observeMessage(o.durable, m));
        wake?.();
      },
    });
    void recreateWhenDeleted(current).catch((err) => o.log.error({ err }, 'reopening the consumer failed'));
    return current;
  };
  // a consumer deleted while running (by mistake, or by an operator) is recreated at once, from
  // now - maxEventAge like any new one, and pulled from again
  const recreateWhenDeleted = async (current: ConsumerMessages): Promise<void> => {
    for await (const s of current.status()) {
      if (stopped || (s.type !== 'consumer_deleted' && s.type !== 'consumer_not_found')) continue;
      o.log.warn({ consumer: o.durable, status: s.type }, 'durable consumer missing: recreating it');
      await current.close().catch(() => {});
      while (!stopped) {
        try {
          await ensureDurable(o.jsm, o.names, opts);
          if (stopped) return;
          messages = await open();
          if (stopped) await messages.close().catch(() => {});
          return;
        } catch (err) {
          o.log.error({ err, consumer: o.durable }, 'recreating the durable consumer failed; retrying');
          await new Promise((r) => setTimeout(r, 1_000));
        }
      }
      return;
    }
  };
  let messages = await open();
  const handle = batchHandler(opts);
  const worker = (async () => {
    while (!stopped) {
      if (queue.length === 0) {
        await new Promise<void>((r) => {
          wake = r;
        });
        wake = undefined;
        continue;
      }
      await handle(queue.splice(0, opts.batchSize)).catch((err) =>
        // never reached in practice (every path acks, naks or terms); messages get redelivered
        o.log.error({ err }, 'event batch handling failed'),
      );
    }
  })();
  return {
    async stop() {
      stopped = true;
      wake?.();
      await messages.close().catch(() => {});
      await worker;
      // handed back now rather than after the ack wait: another replica takes them at once
      for (const m of queue.splice(0)) m.nak();
    },
  };
}

type Resolved = EventConsumerOptions & typeof EVENT_CONSUMER_DEFAULTS;

const SET_ASIDE_SQL = `INSERT INTO set_aside_events (consumer, stream_seq, subject, deliveries, reason, payload)
VALUES ($1, $2, $3, $4, $5, $6)`;

function batchHandler(o: Resolved) {
  const setAside = async (m: JsMsg, reason: string): Promise<void> => {
    try {
      const clean = reason.replaceAll('\u0000', '').slice(0, 1000);
      await o.pool.query(SET_ASIDE_SQL, [
        o.durable,
        m.seq,
        m.subject,
        m.info.deliveryCount,
        clean,
        Buffer.from(m.data),
      ]);
      o.log.error(
        { consumer: o.durable, seq: m.seq, subject: m.subject, reason: clean },
        'order event set aside (recorded in set_aside_events)',
      );
      m.term(); // no reason text: servers before 2.10.4 do not read one
    } catch (err) {
      o.log.error({ err, seq: m.seq }, 'recording a set-aside event failed; redelivery');
      m.nak(redeliveryDelayMs(m.info.deliveryCount));
    }
  };
  const failed = async (m: JsMsg, err: unknown, eventId: string): Promise<void> => {
    if (m.info.deliveryCount >= o.maxDeliveries) return setAside(m, `store failed: ${String(err)}`);
    o.log.error({ err, eventId, deliveries: m.info.deliveryCount }, 'storing order event failed; redelivery');
    m.nak(redeliveryDelayMs(m.info.deliveryCount));
  };

  return async (batch: JsMsg[]): Promise<void> => {
    const good: { m: JsMsg; e: ParsedOrderEvent }[] = [];
    let tooOld = 0;
    const oldest = Date.now() - o.maxEventAgeMs;
    for (const m of batch) {
      const e = parseOrderEvent(m.data);
      if ('error' in e) await setAside(m, `unreadable: ${e.error}`);
      else if (Date.parse(e.createdAt) < oldest) {
        tooOld++;
        m.ack();
      } else good.push({ m, e });
    }
    if (tooOld) o.log.warn({ consumer: o.durable, events: tooOld }, 'events older than retention skipped');
    if (good.length === 0) return;
    try {
      await o.store(good.map((g) => g.e));
      for (const g of good) g.m.ack();
      return;
    } catch (err) {
      if (good.length === 1) return failed(good[0].m, err, good[0].e.eventId);
      o.log.warn({ err, events: good.length }, 'storing a batch failed; retrying one by one');
    }
    for (const g of good) {
      try {
        await o.store([g.e]);
        g.m.ack();
      } catch (err) {
        await failed(g.m, err, g.e.eventId);
      }
    }
  };
}
