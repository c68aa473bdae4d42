import { randomUUID } from 'node:crypto';
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { names } from '@od/contracts';
import { createPool, type Pool } from '@od/db';
import { startStack, type TestStack } from '@od/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BOARD_WINDOW_MS, PANEL_CONSUMER } from './live-orders.ts';

const until = async (check: () => Promise<boolean>, ms = 20_000) => {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 50));
  }
};

/** The board projection (`store_orders`) on @od/bus's event consumer, with the panel alone on the stack. */
describe('panel board projection', () => {
  let stack: TestStack;
  let nc: NatsConnection;
  let pool: Pool;
  const merchantId = randomUUID();

  beforeAll(async () => {
    stack = await startStack({ services: [], panel: true });
    nc = await connect({ servers: stack.config.NATS_URL });
    pool = createPool(stack.config.DATABASE_URL, 'panel', 2);
  }, 60_000);
  afterAll(async () => {
    await nc?.close();
    await pool?.end();
    await stack?.stop();
  });

  const n = () => names(stack.prefix);
  const publish = (orderId: string, orderSeq: number, eventType: string) =>
    jetstream(nc).publish(
      n().orderEventSubject(merchantId),
      JSON.stringify({
        merchantId,
        channel: 'APP',
        orderSeq,
        envelope: {
          eventId: randomUUID(),
          eventType,
          orderId,
          orderURL: 'https://x',
          createdAt: new Date().toISOString(),
        },
      }),
    );
  const row = async (orderId: string) =>
    (await pool.query('SELECT last_event_type, order_seq FROM store_orders WHERE order_id = $1', [orderId]))
      .rows[0] as { last_event_type: string; order_seq: number } | undefined;

  it('a new consumer starts at now - 24 h (the board window), never at the stream beginning', async () => {
    const jsm = await jetstreamManager(nc);
    const info = await jsm.consumers.info(n().orderEventsStream, PANEL_CONSUMER);
    expect(info.config.deliver_policy).toBe('by_start_time');
    const start = Date.parse(info.config.opt_start_time ?? '');
    expect(Math.abs(Date.now() - BOARD_WINDOW_MS - start)).toBeLessThan(120_000);
  });

  it('keeps the latest event of each order; an older one arriving later changes nothing', async () => {
    const a = randomUUID();
    await publish(a, 1, 'CREATED');
    await publish(a, 2, 'CONFIRMED');
    await publish(a, 1, 'CREATED'); // a redelivery or an out-of-order copy
    const b = randomUUID();
    await publish(b, 1, 'CREATED');
    await until(async () => (await row(b)) !== undefined && (await row(a))?.order_seq === 2);
    await new Promise((r) => setTimeout(r, 300));
    expect(await row(a)).toEqual({ last_event_type: 'CONFIRMED', order_seq: 2 });
    expect(await row(b)).toEqual({ last_event_type: 'CREATED', order_seq: 1 });
  });

  it('an unreadable message is set aside with a record, and the next event is still stored', async () => {
    await jetstream(nc).publish(n().orderEventSubject(merchantId), 'not json');
    const c = randomUUID();
    await publish(c, 1, 'CREATED');
    await until(async () => (await row(c)) !== undefined);
    await until(
      async () =>
        (await pool.query(`SELECT 1 FROM set_aside_events WHERE consumer = $1`, [PANEL_CONSUMER]))
          .rowCount === 1,
    );
  });
});
