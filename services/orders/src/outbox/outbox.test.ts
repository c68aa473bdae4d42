import { randomUUID } from 'node:crypto';
import {
  createMerchant,
  createOrder,
  eventsOf,
  startStack,
  type TestStack,
  waitForStream,
} from '@od/testing';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pruneOutbox } from '../db/outbox.ts';
import type { OrdersHandle } from '../main.ts';
import { MAX_PUBLISH_ATTEMPTS } from './relay.ts';

describe('orders outbox: poison rows and pruning', () => {
  let stack: TestStack;
  let db: pg.Client;

  beforeAll(async () => {
    stack = await startStack({ services: ['catalog', 'orders'] });
    db = new pg.Client({ connectionString: stack.config.DATABASE_URL, options: '-c search_path=orders' });
    await db.connect();
  });
  afterAll(async () => {
    await db?.end();
    await stack?.stop();
  });

  const insertRow = (message: string, extra: { createdAt?: string; publishedAt?: string | null } = {}) =>
    db.query<{ id: string }>(
      `INSERT INTO order_outbox (event_id, order_id, merchant_id, order_seq, event_type, message, created_at, published_at)
       VALUES ($1, $2, $3, 1, 'CREATED', $4, $5, $6) RETURNING id`,
      [
        randomUUID(),
        randomUUID(),
        randomUUID(),
        message,
        extra.createdAt ?? new Date().toISOString(),
        extra.publishedAt ?? null,
      ],
    );

  it('a row that cannot be published is set aside after a few attempts and blocks nothing behind it', async () => {
    // larger than the bus accepts (the write path refuses such events; an old or hand-made row may exist)
    const poison = (await insertRow('x'.repeat(2 * 1024 * 1024))).rows[0].id;
    const { merchantId } = await createMerchant(stack);
    const order = await createOrder(stack, merchantId);
    const events = await waitForStream(
      stack.config.NATS_URL,
      stack.prefix,
      (e) => eventsOf(e, order.id).length > 0,
    );
    expect(eventsOf(events, order.id).map((e) => e.message.envelope.eventType)).toEqual(['CREATED']);
    const deadline = Date.now() + 20_000;
    let row: {
      attempts: number;
      set_aside_at: Date | null;
      last_error: string | null;
      published_at: Date | null;
    };
    for (;;) {
      row = (
        await db.query(
          'SELECT attempts, set_aside_at, last_error, published_at FROM order_outbox WHERE id = $1',
          [poison],
        )
      ).rows[0];
      if (row.set_aside_at || Date.now() > deadline) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(row.set_aside_at).not.toBeNull();
    expect(row.attempts).toBe(MAX_PUBLISH_ATTEMPTS);
    expect(row.last_error).toBeTruthy();
    expect(row.published_at).toBeNull();
    expect((stack.services.orders as OrdersHandle).relay.stats().setAside).toBe(1);
    // the relay goes on: later events still flow
    const next = await createOrder(stack, merchantId);
    const after = await waitForStream(
      stack.config.NATS_URL,
      stack.prefix,
      (e) => eventsOf(e, next.id).length > 0,
    );
    expect(eventsOf(after, next.id).length).toBe(1);
  });

  const relayStats = () => (stack.services.orders as OrdersHandle).relay.stats();
  const publishedAt = async (eventId: string) => {
    const deadline = Date.now() + 15_000;
    for (;;) {
      const { rows } = await db.query<{ p: Date | null }>(
        'SELECT published_at AS p FROM order_outbox WHERE event_id = $1',
        [eventId],
      );
      if (rows[0]?.p || Date.now() > deadline) return rows[0]?.p ?? null;
      await new Promise((r) => setTimeout(r, 50));
    }
  };

  it('an event whose order has nothing unpublished goes out at once, once, and is marked', async () => {
    const { merchantId } = await createMerchant(stack);
    const before = relayStats().publishedAtOnce;
    const order = await createOrder(stack, merchantId);
    const events = await waitForStream(
      stack.config.NATS_URL,
      stack.prefix,
      (e) => eventsOf(e, order.id).length > 0,
    );
    const created = eventsOf(events, order.id);
    expect(created.map((e) => e.message.envelope.eventType)).toEqual(['CREATED']);
    expect(relayStats().publishedAtOnce).toBe(before + 1);
    expect(await publishedAt(created[0].message.envelope.eventId)).not.toBeNull();
  });

  it('an event behind an unpublished one of its order goes through the relay, after it', async () => {
    const { merchantId } = await createMerchant(stack);
    const order = await createOrder(stack, merchantId);
    const [created] = eventsOf(
      await waitForStream(stack.config.NATS_URL, stack.prefix, (e) => eventsOf(e, order.id).length > 0),
      order.id,
    );
    expect(await publishedAt(created.message.envelope.eventId)).not.toBeNull();
    // CREATED unpublished again (a mark lost in a crash), and kept so: its row locked right after, the
    // relay can re-publish it but not mark it. The cancel's event must not overtake it.
    const locker = new pg.Client({
      connectionString: stack.config.DATABASE_URL,
      options: '-c search_path=orders',
    });
    await locker.connect();
    try {
      await locker.query('BEGIN');
      await db.query('UPDATE order_outbox SET published_at = NULL WHERE order_id = $1', [order.id]);
      await locker.query('SELECT id FROM order_outbox WHERE order_id = $1 FOR UPDATE', [order.id]);
      const before = relayStats().publishedAtOnce;
      const c = await stack.admin('POST', `/admin/v1/orders/${order.id}/cancel`, { by: 'MERCHANT' });
      expect(c.status).toBeLessThan(300);
      const events = await waitForStream(
        stack.config.NATS_URL,
        stack.prefix,
        (e) => eventsOf(e, order.id).length > 1,
      );
      // the re-published CREATED was deduplicated by the stream; the cancel's event came after it
      expect(eventsOf(events, order.id).map((e) => e.message.envelope.eventType)).toEqual([
        'CREATED',
        'CANCELLED',
      ]);
      expect(relayStats().publishedAtOnce).toBe(before);
    } finally {
      await locker.query('COMMIT');
      await locker.end();
    }
  });

  it('prunes only published rows older than the retention', async () => {
    const ago = (ms: number) => new Date(Date.now() - ms).toISOString();
    const H = 3_600_000;
    const old = (await insertRow('{}', { createdAt: ago(50 * H), publishedAt: ago(48 * H) })).rows[0].id;
    const recent = (await insertRow('{}', { createdAt: ago(2 * H), publishedAt: ago(H) })).rows[0].id;
    const unpublished = (await insertRow('{}', { createdAt: ago(50 * H) })).rows[0].id;
    await db.query('UPDATE order_outbox SET set_aside_at = now() WHERE id = $1', [unpublished]);
    await pruneOutbox(db, 24 * H);
    const left = async () =>
      (
        await db.query<{ id: string }>('SELECT id FROM order_outbox WHERE id = ANY($1::bigint[])', [
          [old, recent, unpublished],
        ])
      ).rows
        .map((r) => r.id)
        .sort();
    expect(await left()).toEqual([recent, unpublished].sort());
    await pruneOutbox(db, 30 * 60_000);
    expect(await left()).toEqual([unpublished]);
  });
});
