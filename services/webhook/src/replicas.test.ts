import { type HttpsReceiver, startHttpsReceiver } from '@od/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWebhookStack, type WebhookTestStack } from './testkit.ts';

describe('webhook service replicas', () => {
  let t: WebhookTestStack;
  let rx: HttpsReceiver;
  beforeAll(async () => {
    t = await startWebhookStack({ env: { WEBHOOK_RETRY_SCALE: '0.05' } });
    await t.stack.startService('webhook');
    await t.stack.startService('webhook');
    rx = await startHttpsReceiver();
  });
  afterAll(async () => {
    await rx?.close();
    await t?.stop();
  });

  it('three replicas share the consumer and the schedule: each attempt is made once', async () => {
    // every second request fails once: retries are claimed by whichever replica is free
    const failed = new Set<string>();
    rx.respond((r) => {
      const id = r.headers['webhook-id'];
      if (id && !failed.has(id) && id.charCodeAt(0) % 2 === 0) {
        failed.add(id);
        return { status: 500 };
      }
      return {};
    });
    const creds = [];
    for (let i = 0; i < 3; i++) creds.push(await t.addCredential({ url: `${rx.url}/r${i}` }));
    const events = [];
    for (let i = 0; i < 60; i++) events.push(await t.publish(creds[i % 3].merchantId));
    const expected = 60 + events.filter((e) => e.eventId.charCodeAt(0) % 2 === 0).length;
    await rx.waitFor(expected, 20_000);
    for (const c of creds) {
      await t.waitDeliveries(c.clientId, (d) => d.length === 20 && d.every((x) => x.status === 'DELIVERED'));
    }
    await new Promise((r) => setTimeout(r, 1_000));
    // no duplicate sends: per event, one request, or two when the first one failed
    const per = new Map<string, number>();
    for (const r of rx.requests)
      per.set(r.headers['webhook-id'], (per.get(r.headers['webhook-id']) ?? 0) + 1);
    for (const e of events) expect(per.get(e.eventId), e.eventId).toBe(failed.has(e.eventId) ? 2 : 1);
    expect(rx.requests).toHaveLength(expected);
  });
});
