import type { ChildProcess } from 'node:child_process';
import { registry } from '@od/telemetry';
import {
  createMerchant,
  createOrder,
  eventsOf,
  issueTestToken,
  readStream,
  serviceChildren,
  startStack,
  type TestStack,
  waitForStream,
} from '@od/testing';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

/**
 * No order waits forever: a PENDING order past its confirmation deadline is cancelled by the
 * platform (CANCELLED, OTHER_CANCELLATION_REASON), exactly once, whatever the replicas and restarts.
 * The deadline is moved into the past in SQL (the API keeps N >= 30 s); the sweep runs every 100 ms.
 */
const SWEEP = '100ms';

describe('confirmation timeout (in-process orders)', () => {
  let stack: TestStack;
  let db: pg.Client;
  beforeAll(async () => {
    stack = await startStack({
      services: ['catalog', 'orders'],
      env: { ORDER_CONFIRM_SWEEP_INTERVAL: SWEEP },
    });
    db = new pg.Client({ connectionString: stack.config.DATABASE_URL });
    await db.connect();
  });
  afterAll(async () => {
    await db?.end();
    await stack?.stop();
  });

  it('an unconfirmed order is cancelled once after its deadline; a confirmed one is left alone', async () => {
    const { merchantId } = await createMerchant(stack);
    const late = await createOrder(stack, merchantId, { type: 'DELIVERY' });
    const confirmed = await createOrder(stack, merchantId, { type: 'TAKEOUT' });
    const { token } = await issueTestToken(stack, { merchantId, scopes: ['orders:read', 'orders:write'] });
    const c = await stack.api(`/v1/orders/${confirmed.id}/confirm`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(c.status).toBe(202);
    const expired = async () =>
      (await registry.getSingleMetric('od_orders_expired_total')?.get())?.values[0]?.value ?? 0;
    const expiredBefore = await expired();
    const before = await (await stack.admin('GET', `/admin/v1/orders/${late.id}`)).json();
    expect(Date.parse(before.confirmBy) - Date.parse(late.createdAt)).toBe(480_000);
    expect(before.situation).toBe('PENDING');

    await db.query(
      `UPDATE orders.order_deadlines SET confirm_by = now() - interval '1 second' WHERE order_id = ANY($1::uuid[])`,
      [[late.id, confirmed.id]],
    );
    // a deadline the previous release left behind (it confirmed without deleting it): dropped, no event
    await db.query(`INSERT INTO orders.order_deadlines VALUES ($1, now() - interval '1 second')`, [
      confirmed.id,
    ]);
    const events = await waitForStream(stack.config.NATS_URL, stack.prefix, (e) =>
      eventsOf(e, late.id).some((x) => x.message.envelope.eventType === 'CANCELLED'),
    );
    const cancelled = eventsOf(events, late.id).filter((x) => x.message.envelope.eventType === 'CANCELLED');
    expect(cancelled).toHaveLength(1);
    expect(cancelled[0].message.envelope.metadata).toEqual({
      reason: expect.stringContaining('não o confirmou no tempo limite'),
      code: 'OTHER_CANCELLATION_REASON',
    });
    const after = await (await stack.admin('GET', `/admin/v1/orders/${late.id}`)).json();
    expect(after.situation).toBe('CANCELLED');
    expect(after.history.at(-1)).toMatchObject({ trigger: 'expire', actorKind: 'PLATFORM', to: 'CANCELLED' });
    expect((await expired()) - expiredBefore).toBe(1);

    // a few more sweeps: nothing else happens to either order
    await new Promise((r) => setTimeout(r, 600));
    const again = await readStream(stack.config.NATS_URL, stack.prefix);
    expect(eventsOf(again, late.id).filter((x) => x.message.envelope.eventType === 'CANCELLED')).toHaveLength(
      1,
    );
    expect(eventsOf(again, confirmed.id).map((x) => x.message.envelope.eventType)).toEqual([
      'CREATED',
      'CONFIRMED',
    ]);
    expect((await (await stack.admin('GET', `/admin/v1/orders/${confirmed.id}`)).json()).situation).toBe(
      'ACCEPTED',
    );
  });

  it('an unpaid order has no deadline until it is paid; the deadline starts at payment', async () => {
    const { merchantId } = await createMerchant(stack);
    const o = await createOrder(stack, merchantId, { type: 'DELIVERY', paymentPending: true });
    const unpaid = await (await stack.admin('GET', `/admin/v1/orders/${o.id}`)).json();
    expect(unpaid.confirmBy).toBeNull();
    const t0 = Date.now();
    expect((await stack.admin('POST', `/admin/v1/orders/${o.id}/payment`, {})).status).toBe(202);
    const paid = await (await stack.admin('GET', `/admin/v1/orders/${o.id}`)).json();
    expect(paid.situation).toBe('PENDING');
    const left = Date.parse(paid.confirmBy) - t0;
    expect(left).toBeGreaterThan(470_000);
    expect(left).toBeLessThan(490_000);
  });
});

describe('confirmation timeout: replicas killed while timeouts are due', () => {
  let stack: TestStack;
  let db: pg.Client;
  const replicas = serviceChildren(() => stack, 'orders', { ORDER_CONFIRM_SWEEP_INTERVAL: SWEEP });
  const startChild = replicas.start;
  const situations = async (ids: string[]) =>
    (
      await db.query(
        'SELECT situation, count(*)::int AS n FROM orders.orders WHERE id = ANY($1::uuid[]) GROUP BY 1',
        [ids],
      )
    ).rows as { situation: string; n: number }[];

  beforeAll(async () => {
    stack = await startStack({ services: ['catalog'] });
    db = new pg.Client({ connectionString: stack.config.DATABASE_URL });
    await db.connect();
  });
  afterEach(() => replicas.killAll());
  afterAll(async () => {
    await db?.end();
    await stack?.stop();
  });

  it('three replicas, SIGKILLed and restarted while 60 orders are due: each is cancelled exactly once', async () => {
    const replicas: ChildProcess[] = await Promise.all([startChild(), startChild(), startChild()]);
    const { merchantId } = await createMerchant(stack);
    const ids: string[] = [];
    for (let i = 0; i < 60; i++) ids.push((await createOrder(stack, merchantId, { type: 'TAKEOUT' })).id);
    // everything due at once, then replicas die one after the other mid-sweep and come back
    await db.query(
      `UPDATE orders.order_deadlines SET confirm_by = now() - interval '1 second' WHERE order_id = ANY($1::uuid[])`,
      [ids],
    );
    for (let k = 0; k < 4; k++) {
      await new Promise((r) => setTimeout(r, 40 + Math.random() * 120));
      replicas[k % 3].kill('SIGKILL');
      replicas[k % 3] = await startChild();
    }
    const deadline = Date.now() + 60_000;
    while (Date.now() < deadline) {
      const s = await situations(ids);
      const unpublished = (
        await db.query('SELECT count(*)::int AS n FROM orders.order_outbox WHERE published_at IS NULL')
      ).rows[0].n;
      if (s.length === 1 && s[0].situation === 'CANCELLED' && unpublished === 0) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(await situations(ids)).toEqual([{ situation: 'CANCELLED', n: 60 }]);
    const events = await readStream(stack.config.NATS_URL, stack.prefix);
    for (const id of ids) {
      const types = eventsOf(events, id).map((e) => e.message.envelope.eventType);
      expect(types, id).toEqual(['CREATED', 'CANCELLED']);
    }
    const history = await db.query(
      `SELECT order_id, count(*)::int AS n FROM orders.order_history WHERE trigger = 'expire' AND order_id = ANY($1::uuid[]) GROUP BY 1`,
      [ids],
    );
    expect(history.rows.every((r) => r.n === 1)).toBe(true);
    expect(history.rows).toHaveLength(60);
  }, 120_000);

  it('due while no replica runs: the first one started cancels them (the schedule is the table)', async () => {
    const first = await startChild();
    const { merchantId } = await createMerchant(stack);
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await createOrder(stack, merchantId, { type: 'DELIVERY' })).id);
    first.kill('SIGKILL');
    await db.query(
      `UPDATE orders.order_deadlines SET confirm_by = now() - interval '1 minute' WHERE order_id = ANY($1::uuid[])`,
      [ids],
    );
    await new Promise((r) => setTimeout(r, 500));
    expect(await situations(ids)).toEqual([{ situation: 'PENDING', n: 5 }]);
    await startChild();
    const events = await waitForStream(
      stack.config.NATS_URL,
      stack.prefix,
      (e) => ids.every((id) => eventsOf(e, id).some((x) => x.message.envelope.eventType === 'CANCELLED')),
      30_000,
    );
    for (const id of ids)
      expect(eventsOf(events, id).map((e) => e.message.envelope.eventType)).toEqual(['CREATED', 'CANCELLED']);
  }, 90_000);
});
