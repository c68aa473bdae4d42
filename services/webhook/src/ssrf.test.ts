import { randomUUID } from 'node:crypto';
import { type HttpsReceiver, startHttpsReceiver } from '@od/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWebhookStack, type WebhookTestStack } from './testkit.ts';

describe('webhook SSRF protection (private networks not allowed)', () => {
  let t: WebhookTestStack;
  let rx: HttpsReceiver;
  beforeAll(async () => {
    t = await startWebhookStack({
      env: { WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'false', WEBHOOK_RETRY_SCALE: '0.01' },
    });
    rx = await startHttpsReceiver();
  });
  afterAll(async () => {
    await rx?.close();
    await t?.stop();
  });

  const attemptsOf = async (clientId: string, n: number) => {
    const deadline = Date.now() + 10_000;
    for (;;) {
      const items = (await t.admin('GET', `/admin/v1/credentials/${clientId}/webhook-attempts`)).body.items;
      if (items.length >= n || Date.now() > deadline) return items;
      await new Promise((r) => setTimeout(r, 50));
    }
  };

  it('refuses a literal loopback address: attempts recorded with an error, nothing sent', async () => {
    const path = `/ip/${randomUUID()}`;
    const { clientId, merchantId } = await t.addCredential({ url: rx.url + path });
    await t.publish(merchantId);
    const items = await t.waitDeliveries(clientId, (d) => d[0]?.status === 'WEBHOOK_FAILED');
    expect(items[0].lastError).toBe('host 127.0.0.1 refused (no public address)');
    const log = await attemptsOf(clientId, 4);
    expect(log).toHaveLength(4);
    for (const a of log)
      expect(a).toMatchObject({ statusCode: null, success: false, error: expect.stringMatching(/refused/) });
    expect(rx.requests.some((r) => r.path === path)).toBe(false);
  });

  it('refuses a name resolving to loopback (checked on the resolved address)', async () => {
    const path = `/dns/${randomUUID()}`;
    const { clientId, merchantId } = await t.addCredential({ url: rx.localhostUrl + path });
    await t.publish(merchantId);
    const log = await attemptsOf(clientId, 1);
    expect(log[0].error).toBe(`host ${new URL(rx.localhostUrl).hostname} refused (no public address)`);
    // the attempt log never shows what the name resolved to
    expect(log[0].error).not.toMatch(/127\.0\.0\.1|::1/);
    expect(log[0].statusCode).toBeNull();
    await t.waitDeliveries(clientId, (d) => d[0]?.status === 'WEBHOOK_FAILED');
    expect(rx.requests.some((r) => r.path === path)).toBe(false);
  });

  it('refuses the metadata address and IPv6 loopback', async () => {
    for (const url of ['https://169.254.169.254/latest/meta-data', `https://[::1]:${rx.port}/v6`]) {
      const { clientId, merchantId } = await t.addCredential({ url });
      await t.publish(merchantId);
      const log = await attemptsOf(clientId, 1);
      expect(log[0].error, url).toMatch(/refused \(no public address\)/);
    }
  });
});
