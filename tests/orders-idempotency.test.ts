import { randomUUID } from 'node:crypto';
import { connect } from '@nats-io/transport-node';
import { IDEMPOTENCY_RPC_HEADERS, ORDER_OPS } from '@od/contracts';
import { start as startOrders } from '@od/orders';
import {
  createMerchant,
  createOrder,
  eventsOf,
  issueTestToken,
  readStream,
  type StackOptions,
  startRedisServer,
  startStack,
  type TestStack,
  testRpc,
  waitForStream,
} from '@od/testing';
import { Redis } from 'ioredis';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';

/**
 * Idempotency-Key survives Redis and crashes: the first answer is recorded in PostgreSQL in the
 * action's own transaction. These tests FLUSHALL, so they run on a redis-server of their own.
 */

let redisServer: Awaited<ReturnType<typeof startRedisServer>>;
let redis: Redis;

beforeAll(async () => {
  redisServer = await startRedisServer();
  redis = new Redis(redisServer.url);
});
afterAll(async () => {
  redis?.disconnect();
  await redisServer?.stop();
});

async function stackWithOwnRedis(opts: StackOptions = {}): Promise<TestStack> {
  return startStack({ ...opts, env: { ...opts.env, REDIS_URL: redisServer.url } });
}

async function count(stack: TestStack, sql: string, values: unknown[]): Promise<number> {
  const db = new pg.Client({ connectionString: stack.config.DATABASE_URL });
  await db.connect();
  try {
    const { rows } = await db.query<{ n: number }>(sql, values);
    return rows[0].n;
  } finally {
    await db.end();
  }
}

/** The order's events in the stream are exactly `types`, and its history holds one `confirm`. */
async function expectConfirmedOnce(stack: TestStack, orderId: string, types: string[]): Promise<void> {
  const events = await waitForStream(
    stack.config.NATS_URL,
    stack.prefix,
    (e) => eventsOf(e, orderId).length >= types.length,
  );
  expect(eventsOf(events, orderId).map((e) => e.message.envelope.eventType)).toEqual(types);
  const confirms = await count(
    stack,
    "SELECT count(*)::int AS n FROM orders.order_history WHERE order_id = $1 AND trigger = 'confirm'",
    [orderId],
  );
  expect(confirms).toBe(1);
}

describe('orders: Idempotency-Key recorded with the action', () => {
  let stack: TestStack;
  let merchantId: string;
  let token: string;
  const post = (orderId: string, action: string, key?: string) =>
    stack.api(`/v1/orders/${orderId}/${action}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, ...(key ? { 'idempotency-key': key } : {}) },
    });
  const situation = async (orderId: string) =>
    ((await (await stack.admin('GET', `/admin/v1/orders/${orderId}`)).json()) as { situation: string })
      .situation;

  beforeAll(async () => {
    stack = await stackWithOwnRedis();
    ({ merchantId } = await createMerchant(stack));
    ({ token } = await issueTestToken(stack, { merchantId, scopes: ['orders:read', 'orders:write'] }));
  });
  afterAll(async () => stack?.stop());

  it('after FLUSHALL a keyed confirm replays its first 202 and never executes again', async () => {
    const o = await createOrder(stack, merchantId);
    const key = randomUUID();
    const first = await post(o.id, 'confirm', key);
    expect(first.status).toBe(202);
    expect(await first.json()).toEqual({ status: 'accepted', situation: 'ACCEPTED' });
    // the order moves on; executing the confirm again would backtrack it to ACCEPTED
    expect((await post(o.id, 'startPreparation')).status).toBe(202);
    await redis.flushall();
    const again = await post(o.id, 'confirm', key);
    expect(again.status).toBe(202);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(await again.json()).toEqual({ status: 'accepted', situation: 'ACCEPTED' });
    expect(await situation(o.id)).toBe('PREPARING');
    // the replay went back into Redis: a third try replays from there
    const third = await post(o.id, 'confirm', key);
    expect(third.headers.get('idempotent-replayed')).toBe('true');
    // another request with that key is still refused after the flush
    await redis.flushall();
    const other = await post(o.id, 'dispatch', key);
    expect(other.status).toBe(409);
    expect((await other.json()).error).toBe('idempotency_key_reuse');
    await expectConfirmedOnce(stack, o.id, ['CREATED', 'CONFIRMED', 'PREPARING']);
  });

  it('a refusal (404, 422) is recorded too: after FLUSHALL it is replayed, not executed', async () => {
    const o = await createOrder(stack, merchantId);
    const key = randomUUID();
    const first = await post(o.id, 'startPreparation', key); // PENDING -> 422
    expect(first.status).toBe(422);
    expect((await post(o.id, 'confirm')).status).toBe(202);
    await redis.flushall();
    const again = await post(o.id, 'startPreparation', key); // would now be a valid move
    expect(again.status).toBe(422);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(await situation(o.id)).toBe('ACCEPTED');
  });

  it('admin order intake: one key, one order (also after FLUSHALL); another body with that key is 409', async () => {
    const key = randomUUID();
    const body = { type: 'TAKEOUT', extraInfo: 'Sem cebola' };
    const intake = (b: unknown) =>
      fetch(`${stack.gateway.adminUrl}/admin/v1/merchants/${merchantId}/orders`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${stack.config.ADMIN_TOKEN}`,
          'content-type': 'application/json',
          'idempotency-key': key,
        },
        body: JSON.stringify(b),
      });
    const first = await intake(body);
    expect(first.status).toBe(201);
    const order = await first.json();
    const second = await intake({ extraInfo: 'Sem cebola', type: 'TAKEOUT' }); // same body, keys reordered
    expect(second.status).toBe(201);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(await second.json()).toEqual(order);
    await redis.flushall();
    const third = await intake(body);
    expect(third.status).toBe(201);
    expect((await third.json()).id).toBe(order.id);
    const other = await intake({ type: 'DELIVERY' });
    expect(other.status).toBe(409);
    expect((await other.json()).error).toBe('idempotency_key_reuse');
    expect(
      await count(
        stack,
        'SELECT count(*)::int AS n FROM orders.orders WHERE merchant_id = $1 AND type = $2',
        [merchantId, 'TAKEOUT'],
      ),
    ).toBe(1);
    // without a key, every intake is a new order
    const a = await createOrder(stack, merchantId, body);
    const b = await createOrder(stack, merchantId, body);
    expect(a.id).not.toBe(b.id);
    const events = await readStream(stack.config.NATS_URL, stack.prefix);
    expect(eventsOf(events, order.id).map((e) => e.message.envelope.eventType)).toEqual(['CREATED']);
  });

  it('concurrent intakes with one key reaching the service at once (no Redis lock) create one order', async () => {
    const nc = await connect({ servers: stack.config.NATS_URL });
    try {
      const headers = {
        [IDEMPOTENCY_RPC_HEADERS.key]: randomUUID(),
        [IDEMPOTENCY_RPC_HEADERS.fingerprint]: 'fp',
      };
      const rpc = testRpc(nc, stack.config, 'gateway');
      const send = () =>
        rpc.call(
          ORDER_OPS.adminCreate,
          { params: { merchantId }, body: { type: 'INDOOR' }, headers },
          { traceId: randomUUID(), principal: { kind: 'admin' } },
        );
      const answers = await Promise.all([send(), send(), send(), send(), send(), send()]);
      const ids = new Set(answers.map((r) => JSON.parse(new TextDecoder().decode(r.body)).id));
      expect(answers.map((r) => r.status)).toEqual([201, 201, 201, 201, 201, 201]);
      expect(ids.size).toBe(1);
      expect(answers.filter((r) => r.headers['idempotent-replayed'] === 'true').length).toBe(5);
      // the fingerprint is the gateway's (one recipe): a key without it, or too long, is refused
      for (const bad of [
        { [IDEMPOTENCY_RPC_HEADERS.key]: randomUUID() },
        { ...headers, [IDEMPOTENCY_RPC_HEADERS.key]: 'k'.repeat(129) },
      ]) {
        const r = await rpc.call(
          ORDER_OPS.adminCreate,
          { params: { merchantId }, body: { type: 'INDOOR' }, headers: bad },
          { traceId: randomUUID(), principal: { kind: 'admin' } },
        );
        expect(r.status).toBe(400);
        expect(JSON.parse(new TextDecoder().decode(r.body)).error).toBe('invalid_idempotency_key');
      }
    } finally {
      await nc.close();
    }
  });
});

describe('orders: a crash between commit and reply', () => {
  let stack: TestStack;

  beforeAll(async () => {
    stack = await stackWithOwnRedis({ services: ['auth', 'catalog'] });
  });
  afterAll(async () => stack?.stop());

  it('the retry of a keyed action replays the committed answer; the action ran once', async () => {
    let armed = false;
    let committed: () => void = () => {};
    const afterCommit = new Promise<void>((r) => {
      committed = r;
    });
    // replica A commits, then never answers (a process frozen or killed right after COMMIT): the
    // first COMMIT after arming runs, then its promise never settles; the connection goes back to
    // the pool so that replica A can still stop
    const query = pg.Client.prototype.query;
    pg.Client.prototype.query = function (this: pg.PoolClient, ...args: unknown[]) {
      const result = (query as (...a: unknown[]) => unknown).apply(this, args);
      if (!armed || args[0] !== 'COMMIT' || !(result instanceof Promise)) return result;
      armed = false;
      return result.then(() => {
        this.release();
        committed();
        return new Promise(() => {});
      });
    } as typeof query;
    onTestFinished(() => {
      pg.Client.prototype.query = query;
    });
    const a = await startOrders(stack.config);
    const { merchantId } = await createMerchant(stack);
    const { token } = await issueTestToken(stack, { merchantId, scopes: ['orders:read', 'orders:write'] });
    const o = await createOrder(stack, merchantId);
    const key = randomUUID();
    const confirm = () =>
      stack.api(`/v1/orders/${o.id}/confirm`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'idempotency-key': key },
      });
    armed = true;
    const lost = confirm();
    await afterCommit;
    await a.stop();
    const b = await startOrders(stack.config);
    try {
      const first = await lost;
      expect(first.status).toBe(503); // no reply reached the gateway
      const retry = await confirm();
      expect(retry.status).toBe(202);
      expect(retry.headers.get('idempotent-replayed')).toBe('true');
      expect(await retry.json()).toEqual({ status: 'accepted', situation: 'ACCEPTED' });
      await expectConfirmedOnce(stack, o.id, ['CREATED', 'CONFIRMED']);
    } finally {
      await b.stop();
    }
  }, 60_000);
});
