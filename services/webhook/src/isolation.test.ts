import { type HttpsReceiver, startHttpsReceiver } from '@od/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWebhookStack, type WebhookTestStack } from './testkit.ts';

describe('webhook isolation between stores', () => {
  let t: WebhookTestStack;
  let slow: HttpsReceiver;
  let fast: HttpsReceiver;
  beforeAll(async () => {
    t = await startWebhookStack();
    // hangs 10 s on every call (the delivery timeout)
    slow = await startHttpsReceiver({ delayMs: 10_000 });
    fast = await startHttpsReceiver();
  });
  afterAll(async () => {
    await slow?.close();
    await fast?.close();
    await t?.stop();
  });

  it('a receiver hanging 10 s does not delay another store: its deliveries arrive in < 1 s', async () => {
    const a = await t.addCredential({ url: `${slow.url}/hang` });
    const b = await t.addCredential({ url: `${fast.url}/ok` });
    const latencies: number[] = [];
    for (let i = 0; i < 8; i++) {
      // the hanging store gets three events for each event of the other store
      for (let k = 0; k < 3; k++) await t.publish(a.merchantId);
      const sentAt = Date.now();
      const ev = await t.publish(b.merchantId);
      const [got] = await fast.waitFor(1, 5_000, (r) => JSON.parse(r.rawBody).eventId === ev.eventId);
      latencies.push(got.at - sentAt);
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(Math.max(...latencies)).toBeLessThan(1_000);
    // the hanging receiver holds at most 4 deliveries at once (per-URL cap)
    expect(slow.requests.length).toBeGreaterThan(0);
    expect(slow.requests.length).toBeLessThanOrEqual(4);
    await t.waitDeliveries(b.clientId, (d) => d.length === 8 && d.every((x) => x.status === 'DELIVERED'));
    const pendingA = await t.admin('GET', `/admin/v1/credentials/${a.clientId}/webhook`);
    expect(pendingA.body.pending).toBe(24);
  });
});
