import { randomUUID } from 'node:crypto';
import type { ServiceHandle } from '@od/runtime';
import { type HttpsReceiver, startHttpsReceiver } from '@od/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWebhookStack, type WebhookTestStack } from './testkit.ts';

describe('webhook retries survive a restart', () => {
  let t: WebhookTestStack;
  let rx: HttpsReceiver;
  let running: ServiceHandle | undefined;
  beforeAll(async () => {
    // retries after 1, 2 and 4 s
    t = await startWebhookStack({ env: { WEBHOOK_RETRY_SCALE: '0.2' } });
    rx = await startHttpsReceiver();
  });
  afterAll(async () => {
    await rx?.close();
    await t?.stop();
  });

  it('a new instance picks up the stored schedule: retries continue on time', async () => {
    const path = `/restart/${randomUUID()}`;
    rx.respond((r) => (r.path === path ? { status: 500 } : {}));
    const { clientId, merchantId } = await t.addCredential({ url: rx.url + path });
    const ev = await t.publish(merchantId);
    const [first] = await rx.waitFor(1, 10_000, (r) => r.path === path);
    await t.waitDeliveries(clientId, (d) => d[0]?.attempts === 1);
    // stop the only webhook instance right after the first failure (retry due in 1 s)
    await t.stack.services.webhook!.stop();
    await new Promise((r) => setTimeout(r, 1_500));
    expect(rx.requests.filter((r) => r.path === path)).toHaveLength(1);
    rx.respond((r) => (r.path === path ? { status: 200 } : {}));
    const restartedAt = Date.now();
    running = await t.stack.startService('webhook');
    const got = await rx.waitFor(2, 10_000, (r) => r.path === path);
    // overdue retry sent promptly after the start
    expect(got[1].at - restartedAt).toBeLessThan(3_000);
    expect(got[1].at - first.at).toBeGreaterThanOrEqual(1_000);
    expect(JSON.parse(got[1].rawBody).eventId).toBe(ev.eventId);
    const items = await t.waitDeliveries(clientId, (d) => d[0]?.status === 'DELIVERED');
    expect(items[0].attempts).toBe(2);
    const log = (await t.admin('GET', `/admin/v1/credentials/${clientId}/webhook-attempts`)).body.items;
    expect(log.map((a: any) => [a.attempt, a.statusCode])).toEqual([
      [2, 200],
      [1, 500],
    ]);
  });

  it('events published while the service is down are delivered after the restart', async () => {
    const path = `/down/${randomUUID()}`;
    const { clientId, merchantId } = await t.addCredential({ url: rx.url + path });
    await running!.stop();
    const evs = [await t.publish(merchantId), await t.publish(merchantId)];
    await new Promise((r) => setTimeout(r, 300));
    expect(rx.requests.filter((r) => r.path === path)).toHaveLength(0);
    running = await t.stack.startService('webhook');
    const got = await rx.waitFor(2, 10_000, (r) => r.path === path);
    expect(got.map((r) => JSON.parse(r.rawBody).eventId).sort()).toEqual(evs.map((e) => e.eventId).sort());
    await t.waitDeliveries(clientId, (d) => d.length === 2 && d.every((x) => x.status === 'DELIVERED'));
  });
});
