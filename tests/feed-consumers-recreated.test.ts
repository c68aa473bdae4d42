import { DeliverPolicy, jetstreamManager } from '@nats-io/jetstream';
import { FEED_RETENTION_DAYS, names } from '@od/contracts';
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
import { FEED_CONSUMER } from '../services/feed/src/consumer.ts';
import { CONSUMER_NAME as WEBHOOK_CONSUMER } from '../services/webhook/src/intake.ts';

const DAY_MS = 86_400_000;

describe('durable consumers deleted and recreated: nothing resurrected, nothing new lost', () => {
  let stack: TestStack;
  let pub: Publisher;
  let webhookDb: Pool;
  beforeAll(async () => {
    stack = await startStack({ services: ['feed', 'webhook'] });
    pub = await publisher(stack);
    webhookDb = createPool(stack.config.DATABASE_URL, 'webhook', 2);
  });
  afterAll(async () => {
    await webhookDb?.end();
    await pub?.close();
    await stack?.stop();
  });

  const deliveries = async (eventId: string) =>
    (await webhookDb.query('SELECT count(*)::int AS n FROM delivery WHERE event_id = $1', [eventId])).rows[0]
      .n as number;

  it('after deleting both consumers and restarting feed and webhook', async () => {
    const c = await issueTestToken(stack, {
      scopes: ['orders:read'],
      record: {
        deliveryMode: 'BOTH',
        webhookUrl: 'https://127.0.0.1:9/hook',
        createdAt: new Date(Date.now() - 40 * DAY_MS).toISOString(),
      },
    });
    // the webhook service knows the credential (its view of the KV bucket) before the first event
    const known = () =>
      stack.admin('GET', `/admin/v1/credentials/${c.clientId}/webhook`).then((r) => r.status);
    expect(await eventually(known, (s) => s === 200)).toBe(200);
    // an event delivered, acknowledged by the integrator and recorded by the webhook
    const seen = await pub.publish(c.merchantId);
    expect(
      (
        await eventually(
          () => poll(stack, c.token),
          (v) => v.length === 1,
        )
      ).map((e) => e.eventId),
    ).toEqual([seen.eventId]);
    expect((await ack(stack, c.token, [seen.eventId])).status).toBe(202);
    expect(
      await eventually(
        () => deliveries(seen.eventId),
        (n) => n === 1,
      ),
    ).toBe(1);

    const n = names(stack.config.NATS_PREFIX);
    const jsm = await jetstreamManager(pub.nc);
    await jsm.consumers.delete(n.orderEventsStream, FEED_CONSUMER);
    await jsm.consumers.delete(n.orderEventsStream, WEBHOOK_CONSUMER);
    // while no consumer exists: an event older than the feed retention (as a stale re-publish would
    // carry) and a new one
    const old = await pub.publish(c.merchantId, {
      createdAt: new Date(Date.now() - (FEED_RETENTION_DAYS + 1) * DAY_MS).toISOString(),
    });
    const fresh = await pub.publish(c.merchantId);

    await stack.services.feed?.stop();
    await stack.services.webhook?.stop();
    await stack.startService('feed');
    await stack.startService('webhook');

    // the new event arrives; the acknowledged one does not come back; the old one never appears
    // (generous waits: both services restart and recreate their consumers; the suite runs in parallel)
    const after = await eventually(
      () => poll(stack, c.token),
      (v) => v.some((e) => e.eventId === fresh.eventId),
      45_000,
    );
    expect(after.map((e) => e.eventId)).toEqual([fresh.eventId]);
    expect(
      await eventually(
        () => deliveries(fresh.eventId),
        (x) => x === 1,
        45_000,
      ),
    ).toBe(1);
    expect(await deliveries(seen.eventId)).toBe(1);
    expect(await deliveries(old.eventId)).toBe(0);
    const stored = await webhookDb.query('SELECT 1 FROM event WHERE event_id = $1', [old.eventId]);
    expect(stored.rowCount).toBe(0);

    // both were recreated starting at now - retention, not at the beginning of the stream
    for (const name of [FEED_CONSUMER, WEBHOOK_CONSUMER]) {
      const info = await jsm.consumers.info(n.orderEventsStream, name);
      expect(info.config.deliver_policy).toBe(DeliverPolicy.StartTime);
      const startsAgo = Date.now() - Date.parse(info.config.opt_start_time ?? '');
      expect(startsAgo).toBeGreaterThanOrEqual(FEED_RETENTION_DAYS * DAY_MS);
      expect(startsAgo).toBeLessThan(FEED_RETENTION_DAYS * DAY_MS + 120_000);
    }
  }, 90_000); // two service restarts and several waits on a 2-core machine shared by other suites
});
