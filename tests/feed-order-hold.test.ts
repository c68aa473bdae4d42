import { randomUUID } from 'node:crypto';
import { createPool, type Pool } from '@od/db';
import {
  ack,
  eventually,
  issueTestToken,
  type Publisher,
  poll,
  publisher,
  startStack,
  type TestStack,
} from '@od/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { releaseExpiredHolds, storeEvents } from '../services/feed/src/db/queries.ts';

// Two feed replicas share one consumer: an order's event N can reach the feed after its N+1 (a
// replica crashed holding N, or PostgreSQL refused N for a while). Polling never serves N+1 before
// N: the later event is held until its predecessor is stored, or until the hold expires.
describe("event feed: an order's events are served in the order's own order", () => {
  let stack: TestStack;
  let pub: Publisher;
  let pool: Pool;
  const at = (base: number, i: number) => new Date(base + i * 1000).toISOString();
  // created an hour ago: receives the events these tests date a minute back
  const reader = () => ({
    scopes: ['orders:read' as const],
    record: { createdAt: new Date(Date.now() - 3_600_000).toISOString() },
  });
  beforeAll(async () => {
    stack = await startStack({ services: ['feed'] });
    pub = await publisher(stack);
    pool = createPool(stack.config.DATABASE_URL, 'feed', 2);
  });
  afterAll(async () => {
    await pool?.end();
    await pub?.close();
    await stack?.stop();
  });

  /** publishes `marker` (another order) and waits until polling shows it: everything before is stored */
  const settled = async (token: string, merchantId: string, createdAt: string) => {
    const marker = await pub.publish(merchantId, { createdAt });
    await eventually(
      () => poll(stack, token),
      (v) => v.some((e) => e.eventId === marker.eventId),
    );
    return marker;
  };

  it('holds events whose predecessor is missing and serves the whole run once it arrives', async () => {
    const { token, merchantId } = await issueTestToken(stack, reader());
    const orderId = randomUUID();
    const base = Date.now() - 60_000;
    const ev = (i: number, eventType: string) =>
      pub.publish(merchantId, { orderId, orderSeq: i, eventType, createdAt: at(base, i) });
    const e2 = await ev(2, 'CONFIRMED');
    const e4 = await ev(4, 'DISPATCHED'); // predecessor present later, but held: held too
    const e3 = await ev(3, 'PREPARING');
    const marker = await settled(token, merchantId, at(base, 10));
    expect((await poll(stack, token)).map((e) => e.eventId)).toEqual([marker.eventId]);

    const e1 = await ev(1, 'CREATED');
    const page = await eventually(
      () => poll(stack, token),
      (v) => v.length === 5,
    );
    expect(page.map((e) => e.eventId)).toEqual([e1, e2, e3, e4, marker].map((e) => e.eventId));
    const held = await pool.query('SELECT count(*)::int AS n FROM events WHERE held_since IS NOT NULL');
    expect(held.rows[0].n).toBe(0);
  });

  it('does not hold the next event once the earlier one was polled and acknowledged', async () => {
    const { token, merchantId } = await issueTestToken(stack, reader());
    const orderId = randomUUID();
    const e1 = await pub.publish(merchantId, { orderId, orderSeq: 1 });
    await eventually(
      () => poll(stack, token),
      (v) => v.length === 1,
    );
    expect((await ack(stack, token, [e1.eventId])).status).toBe(202);
    const e2 = await pub.publish(merchantId, { orderId, orderSeq: 2, eventType: 'CONFIRMED' });
    const page = await eventually(
      () => poll(stack, token),
      (v) => v.length === 1,
    );
    expect(page[0].eventId).toBe(e2.eventId);
  });

  it("stores an order's events arriving in one batch in order, none held, a duplicate once", async () => {
    const { token, merchantId, clientId } = await issueTestToken(stack, reader());
    const marker = await settled(token, merchantId, new Date(Date.now() - 120_000).toISOString());
    expect((await ack(stack, token, [marker.eventId])).status).toBe(202);
    const orderId = randomUUID();
    const other = randomUUID();
    const base = Date.now() - 60_000;
    const ev = (order: string, orderSeq: number, eventType: string) => {
      const e = {
        eventId: randomUUID(),
        eventType,
        orderId: order,
        merchantId,
        createdAt: at(base, orderSeq),
      };
      return { ...e, channel: 'DIGITAL_MENU' as const, orderSeq, envelopeText: JSON.stringify(e) };
    };
    const [a1, a2, a3, b1] = [
      ev(orderId, 1, 'CREATED'),
      ev(orderId, 2, 'CONFIRMED'),
      ev(orderId, 3, 'PREPARING'),
      ev(other, 1, 'CREATED'),
    ];
    // the consumer's batch as JetStream may hand it over: an order's run, another order, a redelivery
    expect(await storeEvents(pool, [a1, a2, b1, a2, a3])).toBe(4);
    expect(await storeEvents(pool, [a3, a1])).toBe(0);
    const held = await pool.query('SELECT count(*)::int AS n FROM events WHERE held_since IS NOT NULL');
    expect(held.rows[0].n).toBe(0);
    const entries = await pool.query<{ event_id: string }>(
      'SELECT event_id FROM feed_entries WHERE credential_id = $1 AND acked_at IS NULL ORDER BY seq',
      [clientId],
    );
    expect(entries.rows.map((r) => r.event_id)).toEqual([a1, b1, a2, a3].map((e) => e.eventId));
    expect((await poll(stack, token)).map((e) => e.eventId)).toEqual([a1, b1, a2, a3].map((e) => e.eventId));
  });

  const eventOf = (merchantId: string, orderId: string, orderSeq: number, base: number) => {
    const e = {
      eventId: randomUUID(),
      eventType: 'CONFIRMED',
      orderId,
      merchantId,
      createdAt: at(base, orderSeq),
    };
    return { ...e, channel: 'DIGITAL_MENU' as const, orderSeq, envelopeText: JSON.stringify(e) };
  };

  it('stores a batch in one round trip once its connection has the statement prepared', async () => {
    const { merchantId } = await issueTestToken(stack, reader());
    const base = Date.now() - 60_000;
    const o = randomUUID();
    await storeEvents(pool, [eventOf(merchantId, o, 1, base)]); // prepares on the connection(s) it gets
    await storeEvents(pool, [eventOf(merchantId, o, 2, base)]);
    const sent: string[] = [];
    const counting = {
      connect: async () => {
        const c = await pool.connect();
        const { query, release } = c;
        c.query = ((...args: Parameters<typeof query>) => {
          sent.push(String(args[0]));
          return query.apply(c, args);
        }) as typeof c.query;
        c.release = () => {
          c.query = query;
          c.release = release;
          release.call(c);
        };
        return c;
      },
    } as unknown as Pool;
    // a quote and a backslash in the envelope travel as literals, unchanged
    const odd = { ...eventOf(merchantId, o, 3, base), envelopeText: `{"note":"it's \\ fine"}` };
    const other = eventOf(merchantId, randomUUID(), 1, base);
    sent.length = 0;
    expect(await storeEvents(counting, [odd, other, eventOf(merchantId, o, 4, base)])).toBeGreaterThan(0);
    expect(sent.filter((q) => !q.startsWith('PREPARE'))).toHaveLength(1);
    const stored = await pool.query<{ envelope: string; held: boolean }>(
      'SELECT envelope, held_since IS NOT NULL AS held FROM events WHERE event_id = $1',
      [odd.eventId],
    );
    expect(stored.rows).toEqual([{ envelope: odd.envelopeText, held: false }]);
  });

  it('never holds an event whose predecessor another connection stores at the same moment', async () => {
    // the store's lock is taken before the statement reads: the later store sees the earlier one
    const { merchantId } = await issueTestToken(stack, reader());
    const base = Date.now() - 60_000;
    const other = createPool(stack.config.DATABASE_URL, 'feed', 2);
    try {
      for (let i = 0; i < 25; i++) {
        const o = randomUUID();
        const first = eventOf(merchantId, o, 1, base);
        const second = eventOf(merchantId, o, 2, base);
        await Promise.all([storeEvents(pool, [first]), storeEvents(other, [second])]);
      }
    } finally {
      await other.end();
    }
    const held = await pool.query(
      'SELECT count(*)::int AS n FROM events WHERE merchant_id = $1 AND held_since IS NOT NULL',
      [merchantId],
    );
    expect(held.rows[0].n).toBe(0);
  });

  it('stores nothing of a batch whose statement fails, and the connection stays usable', async () => {
    const { merchantId } = await issueTestToken(stack, reader());
    const base = Date.now() - 60_000;
    const good = eventOf(merchantId, randomUUID(), 1, base);
    const bad = { ...eventOf(merchantId, good.orderId, 2, base), orderId: 'not-a-uuid' };
    await expect(storeEvents(pool, [good, bad])).rejects.toThrow();
    const n = await pool.query('SELECT count(*)::int AS n FROM events WHERE event_id = $1', [good.eventId]);
    expect(n.rows[0].n).toBe(0);
    expect(await storeEvents(pool, [good])).toBeGreaterThanOrEqual(0);
    const again = await pool.query('SELECT count(*)::int AS n FROM events WHERE event_id = $1', [
      good.eventId,
    ]);
    expect(again.rows[0].n).toBe(1);
  });

  it('serves held events once the hold expires (the predecessor never came), and backfills the hold', async () => {
    const { token, merchantId } = await issueTestToken(stack, reader());
    const orderId = randomUUID();
    const base = Date.now() - 60_000;
    const e5 = await pub.publish(merchantId, { orderId, orderSeq: 5, createdAt: at(base, 5) });
    const e6 = await pub.publish(merchantId, { orderId, orderSeq: 6, createdAt: at(base, 6) });
    const marker = await settled(token, merchantId, at(base, 10));
    // a credential of the same store created now is backfilled with the held entries, held
    const late = await issueTestToken(stack, { ...reader(), merchantId });
    await eventually(
      async () =>
        (
          await pool.query('SELECT count(*)::int AS n FROM feed_entries WHERE credential_id = $1', [
            late.clientId,
          ])
        ).rows[0].n,
      (n) => n === 3,
    );
    expect((await poll(stack, late.token)).map((e) => e.eventId)).toEqual([marker.eventId]);

    expect(await releaseExpiredHolds(pool, 60_000)).toBe(0); // not expired yet
    expect(await releaseExpiredHolds(pool, 60_000, new Date(Date.now() + 61_000))).toBe(2);
    expect((await poll(stack, token)).map((e) => e.eventId)).toEqual([e5, e6, marker].map((e) => e.eventId));
    expect((await poll(stack, late.token)).map((e) => e.eventId)).toEqual(
      [e5, e6, marker].map((e) => e.eventId),
    );
  });
});
