import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { DeliverPolicy, type JetStreamManager, jetstream, jetstreamManager } from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { names } from '@od/contracts';
import { createPool, type Pool } from '@od/db';
import { createLogger } from '@od/logger';
import { cleanupNats, currentInfra, freshDatabase, uniquePrefix } from '@od/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EventConsumer, type EventConsumerOptions, startEventConsumer } from './event-consumer.ts';
import type { ParsedOrderEvent } from './order-events.ts';
import { reconcileOrderEventStream } from './streams.ts';

// the table every consuming service migrates (feed's copy of the DDL)
const SET_ASIDE_DDL = readFileSync(
  path.join(
    import.meta.dirname,
    '../../../services/feed/prisma/migrations/20261123183000_set_aside_events/migration.sql',
  ),
  'utf8',
);
const SETTINGS = { replicas: 1, maxAgeMs: 3_600_000, maxBytes: 16 << 20, duplicateWindowMs: 60_000 };
const log = createLogger('test', process.env.TEST_LOG_LEVEL ?? 'silent');

const until = async (check: () => Promise<boolean> | boolean, ms = 20_000) => {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 50));
  }
};

describe('@od/bus event consumer', () => {
  const prefix = uniquePrefix();
  const n = names(prefix);
  const merchantId = randomUUID();
  let db: Awaited<ReturnType<typeof freshDatabase>>;
  let pool: Pool;
  let nc: NatsConnection;
  let jsm: JetStreamManager;
  const consumers: EventConsumer[] = [];

  const message = (createdAt = new Date().toISOString()) => {
    const eventId = randomUUID();
    const envelope = {
      eventId,
      eventType: 'CREATED',
      orderId: randomUUID(),
      orderURL: 'https://x',
      createdAt,
    };
    return { eventId, text: JSON.stringify({ merchantId, channel: 'APP', orderSeq: 1, envelope }) };
  };
  const publish = (text: string) => jetstream(nc).publish(n.orderEventSubject(merchantId), text);
  const consume = async (
    o: Pick<EventConsumerOptions, 'durable' | 'maxEventAgeMs' | 'store' | 'maxDeliveries'>,
  ) => {
    consumers.push(await startEventConsumer({ nc, jsm, names: n, log, pool, ...o }));
  };

  beforeAll(async () => {
    db = await freshDatabase();
    pool = createPool(db.url, 'public', 4);
    await pool.query(SET_ASIDE_DDL);
    nc = await connect({ servers: currentInfra().natsUrl });
    jsm = await jetstreamManager(nc);
    await reconcileOrderEventStream(jsm, n, SETTINGS);
  });
  afterAll(async () => {
    for (const c of consumers) await c.stop();
    await nc?.close();
    await cleanupNats(currentInfra().natsUrl, prefix);
    await pool?.end();
    await db?.drop();
  });

  it('stores then acks; skips events older than retention; sets aside unreadable and poison messages', async () => {
    const a = message();
    const poison = message();
    const old = message(new Date(Date.now() - 2 * 3_600_000).toISOString());
    const c = message();
    const stored: ParsedOrderEvent[] = [];
    let poisonTries = 0;
    await consume({
      durable: 'first',
      maxEventAgeMs: 3_600_000,
      maxDeliveries: 3,
      store: async (events) => {
        if (events.some((e) => e.eventId === poison.eventId)) {
          poisonTries++;
          throw new Error('constraint violated');
        }
        stored.push(...events);
      },
    });
    for (const m of [a.text, 'not json at all', poison.text, old.text, c.text]) await publish(m);

    await until(async () => {
      const r = await pool.query('SELECT count(*)::int AS n FROM set_aside_events');
      return r.rows[0].n === 2;
    });
    expect(stored.map((e) => e.eventId).sort()).toEqual([a.eventId, c.eventId].sort());
    const rows = (
      await pool.query(
        'SELECT consumer, stream_seq, deliveries, reason, convert_from(payload, $1) AS payload FROM set_aside_events ORDER BY id',
        ['UTF8'],
      )
    ).rows;
    expect(rows[0]).toMatchObject({ consumer: 'first', deliveries: 1, payload: 'not json at all' });
    expect(rows[0].reason).toContain('unreadable');
    expect(rows[1]).toMatchObject({ consumer: 'first', deliveries: 3, payload: poison.text });
    expect(rows[1].reason).toContain('constraint violated');
    // tried as part of the batch, then alone on each of its 3 deliveries
    expect(poisonTries).toBeGreaterThanOrEqual(3);
    // terminated and skipped messages leave nothing pending (a term with a reason text would, on 2.9)
    await until(async () => (await jsm.consumers.info(n.orderEventsStream, 'first')).num_ack_pending === 0);
    const info = await jsm.consumers.info(n.orderEventsStream, 'first');
    expect(info.ack_floor.stream_seq).toBe(5);
  });

  it('a new durable starts at now - maxEventAge, never at the beginning of the stream', async () => {
    // createdAt in the future: only the consumer's start time can keep this message out
    const future = new Date(Date.now() + 3_600_000).toISOString();
    const before = message(future);
    await publish(before.text);
    await new Promise((r) => setTimeout(r, 1_500));
    const after = message(future);
    const seen: string[] = [];
    await consume({
      durable: 'late',
      maxEventAgeMs: 1_000,
      store: async (events) => {
        seen.push(...events.map((e) => e.eventId));
      },
    });
    const info = await jsm.consumers.info(n.orderEventsStream, 'late');
    expect(info.config.deliver_policy).toBe(DeliverPolicy.StartTime);
    expect(Date.now() - Date.parse(info.config.opt_start_time ?? '')).toBeGreaterThanOrEqual(1_000);
    await publish(after.text);
    await until(() => seen.includes(after.eventId));
    expect(seen).not.toContain(before.eventId);
  });

  it('a durable consumer deleted while running is recreated, and new events keep arriving', async () => {
    const seen: string[] = [];
    await consume({
      durable: 'deleted',
      maxEventAgeMs: 3_600_000,
      store: async (events) => {
        seen.push(...events.map((e) => e.eventId));
      },
    });
    const first = message();
    await publish(first.text);
    await until(() => seen.includes(first.eventId));
    await jsm.consumers.delete(n.orderEventsStream, 'deleted');
    const next = message();
    await publish(next.text);
    await until(() => seen.includes(next.eventId), 30_000);
    const info = await jsm.consumers.info(n.orderEventsStream, 'deleted');
    expect(info.config.deliver_policy).toBe(DeliverPolicy.StartTime);
  }, 45_000);
});
