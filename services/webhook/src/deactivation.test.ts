import { randomUUID } from 'node:crypto';
import { type HttpsReceiver, startHttpsReceiver } from '@od/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWebhookStack, type WebhookTestStack } from './testkit.ts';

describe('webhook URL deactivation', () => {
  let t: WebhookTestStack;
  let rx: HttpsReceiver;
  beforeAll(async () => {
    // retries after 50, 100 and 200 ms: a failed delivery takes ~0.4 s
    t = await startWebhookStack({ env: { WEBHOOK_RETRY_SCALE: '0.01' } });
    rx = await startHttpsReceiver();
  });
  afterAll(async () => {
    await rx?.close();
    await t?.stop();
  });

  it('deactivates after 20 consecutive failed deliveries; clear re-enables it', async () => {
    const path = `/down/${randomUUID()}`;
    let healthy = false;
    rx.respond((r) => (r.path === path && !healthy ? { status: 500 } : {}));
    const { clientId, merchantId } = await t.addCredential({ url: rx.url + path });
    const status = async () => (await t.admin('GET', `/admin/v1/credentials/${clientId}/webhook`)).body;

    for (let i = 0; i < 19; i++) await t.publish(merchantId);
    await t.waitDeliveries(
      clientId,
      (d) => d.length === 19 && d.every((x) => x.status === 'WEBHOOK_FAILED'),
      30_000,
    );
    expect(await status()).toMatchObject({ consecutiveFailures: 19, deactivated: false });
    expect(rx.requests.filter((r) => r.path === path)).toHaveLength(19 * 4);

    await t.publish(merchantId);
    await t.waitDeliveries(
      clientId,
      (d) => d.filter((x) => x.status === 'WEBHOOK_FAILED').length === 20,
      15_000,
    );
    const st = await status();
    expect(st).toMatchObject({ consecutiveFailures: 20, deactivated: true, pending: 0 });
    expect(st.deactivatedAt).not.toBeNull();

    // further events are recorded as skipped, not sent
    const sent = rx.requests.filter((r) => r.path === path).length;
    const skipped = await t.publish(merchantId);
    const items = await t.waitDeliveries(clientId, (d) => d.some((x) => x.eventId === skipped.eventId));
    expect(items.find((x) => x.eventId === skipped.eventId)).toMatchObject({
      status: 'SKIPPED',
      skipReason: 'webhook_deactivated',
      attempts: 0,
    });
    // resend is refused while deactivated
    const rs = await t.admin('POST', `/admin/v1/credentials/${clientId}/events/${skipped.eventId}/resend`);
    expect(rs.status).toBe(409);
    expect(rs.body.error).toBe('webhook_deactivated');
    await new Promise((r) => setTimeout(r, 500));
    expect(rx.requests.filter((r) => r.path === path)).toHaveLength(sent);

    // clear: the skipped delivery leaves the queue, the URL works again
    healthy = true;
    const cl = await t.admin('POST', `/admin/v1/credentials/${clientId}/webhook-queue/clear`);
    expect(cl.status).toBe(200);
    expect(cl.body).toEqual({ cleared: 1, reactivated: true });
    expect(await status()).toMatchObject({ consecutiveFailures: 0, deactivated: false, deactivatedAt: null });
    const after = await t.publish(merchantId);
    const got = await rx.waitFor(
      1,
      10_000,
      (r) => r.path === path && JSON.parse(r.rawBody).eventId === after.eventId,
    );
    expect(got).toHaveLength(1);
    const final = await t.waitDeliveries(clientId, (d) =>
      d.some((x) => x.eventId === after.eventId && x.status === 'DELIVERED'),
    );
    expect(final.find((x) => x.eventId === skipped.eventId).status).toBe('CLEARED');
    expect(final.filter((x) => x.status === 'WEBHOOK_FAILED')).toHaveLength(20);
    // the cleared event can still be resent by hand
    const again = await t.admin('POST', `/admin/v1/credentials/${clientId}/events/${skipped.eventId}/resend`);
    expect(again.status).toBe(202);
    await rx.waitFor(1, 10_000, (r) => r.path === path && JSON.parse(r.rawBody).eventId === skipped.eventId);
  });

  it('a delivered event resets the consecutive-failure count', async () => {
    const path = `/flaky/${randomUUID()}`;
    let fail = true;
    rx.respond((r) => (r.path === path && fail ? { status: 500 } : {}));
    const { clientId, merchantId } = await t.addCredential({ url: rx.url + path });
    for (let i = 0; i < 3; i++) await t.publish(merchantId);
    await t.waitDeliveries(clientId, (d) => d.length === 3 && d.every((x) => x.status === 'WEBHOOK_FAILED'));
    expect((await t.admin('GET', `/admin/v1/credentials/${clientId}/webhook`)).body.consecutiveFailures).toBe(
      3,
    );
    fail = false;
    await t.publish(merchantId);
    await t.waitDeliveries(clientId, (d) => d.some((x) => x.status === 'DELIVERED'));
    expect((await t.admin('GET', `/admin/v1/credentials/${clientId}/webhook`)).body.consecutiveFailures).toBe(
      0,
    );
  });
});
