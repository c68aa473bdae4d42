import {
  createMerchant,
  createOrder,
  issueTestToken,
  readStream,
  serviceChildren,
  startStack,
  type TestStack,
} from '@od/testing';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * Crash test of the event path: two orders replicas run as child processes (the outbox relay leader
 * is one of them); while integrators drive orders, replicas are SIGKILLed and restarted. Afterwards
 * every committed event (history rows with an event) is in JetStream exactly once, and per order in
 * commit order.
 */
describe('orders: crash safety of the outbox', () => {
  let stack: TestStack;
  const replicas = serviceChildren(() => stack, 'orders');
  const startChild = replicas.start;

  beforeAll(async () => {
    stack = await startStack({ services: ['catalog'] });
  });
  afterAll(async () => {
    replicas.killAll();
    await stack?.stop();
  });

  it('every committed transition has exactly one event in JetStream across SIGKILLs', async () => {
    let a = await startChild();
    let b = await startChild();
    const { merchantId } = await createMerchant(stack);
    const { token } = await issueTestToken(stack, { merchantId, scopes: ['orders:read', 'orders:write'] });
    const orders: string[] = [];
    for (let i = 0; i < 40; i++)
      orders.push((await createOrder(stack, merchantId, { type: i % 2 ? 'DELIVERY' : 'TAKEOUT' })).id);

    const path = ['confirm', 'startPreparation', 'readyForPickup', 'dispatch', 'delivered'];
    let running = true;
    let answered = 0;
    let failed = 0;
    const worker = async (mine: string[]) => {
      for (const id of mine)
        for (const action of path) {
          // repeat until the service answers (it may be down): 202 accepted or already_applied
          for (let attempt = 0; attempt < 50; attempt++) {
            const r = await stack
              .api(`/v1/orders/${id}/${action}`, {
                method: 'POST',
                headers: { authorization: `Bearer ${token}` },
              })
              .catch(() => undefined);
            if (r?.status === 202) {
              answered++;
              break;
            }
            failed++;
            await new Promise((res) => setTimeout(res, 100));
          }
        }
    };
    const chaos = (async () => {
      let kills = 0;
      // first a total outage: both replicas die mid-traffic (committed rows may be unpublished)
      await new Promise((r) => setTimeout(r, 300));
      a.kill('SIGKILL');
      b.kill('SIGKILL');
      kills += 2;
      await new Promise((r) => setTimeout(r, 300));
      [a, b] = await Promise.all([startChild(), startChild()]);
      // then one at a time: the relay leadership moves between replicas
      while (running && kills < 8) {
        await new Promise((r) => setTimeout(r, 250 + Math.random() * 250));
        const victim = kills % 2 ? b : a;
        victim.kill('SIGKILL');
        kills++;
        await new Promise((r) => setTimeout(r, 200));
        const fresh = await startChild();
        if (victim === a) a = fresh;
        else b = fresh;
      }
      return kills;
    })();
    const chunks = [0, 1, 2, 3, 4, 5, 6, 7].map((k) => orders.filter((_, i) => i % 8 === k));
    await Promise.all(chunks.map(worker));
    running = false;
    const kills = await chaos;
    expect(kills).toBeGreaterThanOrEqual(2);
    expect(answered).toBe(orders.length * path.length);

    const db = new pg.Client({ connectionString: stack.config.DATABASE_URL });
    await db.connect();
    try {
      // the surviving leader drains whatever the killed ones committed but did not publish
      const deadline = Date.now() + 30_000;
      for (;;) {
        const { rows } = await db.query(
          'SELECT count(*)::int AS n FROM orders.order_outbox WHERE published_at IS NULL',
        );
        if (rows[0].n === 0 || Date.now() > deadline) break;
        await new Promise((r) => setTimeout(r, 200));
      }
      const history = await db.query<{ event_id: string; order_id: string; id: string }>(
        'SELECT event_id, order_id, id FROM orders.order_history WHERE event_id IS NOT NULL ORDER BY id',
      );
      const stream = await readStream(stack.config.NATS_URL, stack.prefix);
      const ids = stream.map((e) => e.msgId);
      // exactly once: no duplicate message ids, and the same set as the committed history
      expect(new Set(ids).size).toBe(ids.length);
      expect(new Set(stream.map((e) => e.message.envelope.eventId)).size).toBe(stream.length);
      expect([...ids].sort()).toEqual(history.rows.map((r) => r.event_id).sort());
      // every order: CREATED + its five events, in order
      expect(history.rows.length).toBe(orders.length * 6);
      for (const id of orders) {
        const mine = stream.filter((e) => e.message.envelope.orderId === id);
        expect(mine.map((e) => e.message.orderSeq)).toEqual([1, 2, 3, 4, 5, 6]);
        const committed = history.rows.filter((r) => r.order_id === id).map((r) => r.event_id);
        expect(mine.map((e) => e.message.envelope.eventId)).toEqual(committed);
      }
      const late = await db.query(
        "SELECT count(*)::int AS n FROM orders.order_outbox WHERE published_at - created_at > interval '250 milliseconds'",
      );
      console.info(
        `crash test: ${kills} SIGKILLs, ${failed} refused/failed attempts, ${stream.length} events, ${late.rows[0].n} published late (after a crash/takeover)`,
      );
    } finally {
      await db.end();
    }
  }, 240_000);
});
