import { pbkdf2, randomUUID } from 'node:crypto';
import dns from 'node:dns';
import { promisify } from 'node:util';
import { createEgressDns, outboundRequest, refusedHost } from '@od/egress';
import { type HttpsReceiver, startDnsServer, startHttpsReceiver, type TestDnsServer } from '@od/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWebhookStack, type WebhookTestStack } from './testkit.ts';

/**
 * Outgoing DNS (issue 22): names of integrators' URLs resolve through c-ares with a deadline of its
 * own (EGRESS_DNS_SERVERS, EGRESS_DNS_TIMEOUT), never on libuv's 4 shared threads; a DNS server that
 * never answers fails its own calls after the deadline and nobody else's.
 */
const DEADLINE_MS = 800;

describe('egress DNS: a DNS server that never answers', () => {
  let silent: TestDnsServer;
  let answering: TestDnsServer;
  let rx: HttpsReceiver;
  beforeAll(async () => {
    [silent, answering, rx] = await Promise.all([
      startDnsServer({ silent: true }),
      startDnsServer({ records: { 'internal.test': ['10.0.0.5'], 'pos.test': ['127.0.0.1'] } }),
      startHttpsReceiver(),
    ]);
  });
  afterAll(async () => {
    await Promise.all([silent?.close(), answering?.close(), rx?.close()]);
  });

  const get = (url: string, resolver: ReturnType<typeof createEgressDns>, allowPrivateNetworks = true) =>
    outboundRequest({
      method: 'GET',
      url,
      headers: {},
      timeoutMs: 10_000,
      allowPrivateNetworks,
      maxResponseBytes: 1024,
      dns: resolver,
    });

  it('fails its own calls at the deadline while calls, lookups and thread-pool work of others go on', async () => {
    const resolver = createEgressDns({ servers: [silent.address], timeoutMs: DEADLINE_MS });
    const started = performance.now();
    const hanging = Array.from({ length: 32 }, (_, i) => get(`https://hang-${i}.test/menu`, resolver));
    // meanwhile: another call, the system's lookup and crypto (both on libuv's thread pool)
    const t0 = performance.now();
    const other = await get(`${rx.url}/other`, resolver);
    const sys = await promisify(dns.lookup)('localhost');
    await Promise.all(Array.from({ length: 8 }, () => promisify(pbkdf2)('x', 'y', 20_000, 32, 'sha256')));
    const othersMs = performance.now() - t0;
    expect(other.statusCode).toBe(200);
    expect(sys.address).toBeTruthy();
    const results = await Promise.all(hanging);
    const hangMs = performance.now() - started;
    results.forEach((r, i) => {
      expect(r.statusCode).toBeNull();
      expect(r.error).toBe(refusedHost(`hang-${i}.test`));
    });
    // every name was asked of the silent server, every call ended at the deadline (margin for load)
    expect(new Set(silent.queries).size).toBeGreaterThanOrEqual(32);
    expect(hangMs).toBeGreaterThanOrEqual(DEADLINE_MS - 50);
    expect(hangMs).toBeLessThan(DEADLINE_MS + 3_000);
    expect(othersMs).toBeLessThan(DEADLINE_MS);
  });

  it('unresolvable, not answering and non-public read the same; a name connects to the address checked', async () => {
    const good = createEgressDns({ servers: [answering.address], timeoutMs: DEADLINE_MS });
    const dead = createEgressDns({ servers: [silent.address], timeoutMs: DEADLINE_MS });
    const texts = [
      (await get('https://internal.test/x', good, false)).error,
      (await get('https://nowhere.test/x', good, false)).error,
      (await get('https://nowhere.test/x', good, true)).error,
      (await get('https://slow.test/x', dead, false)).error,
    ].map((t) => t?.replace(/host \S+ /, 'host H '));
    expect(new Set(texts)).toEqual(new Set([refusedHost('H')]));
    // pos.test -> 127.0.0.1: the TLS handshake with the receiver there proves where the socket went
    const r = await get(`https://pos.test:${rx.port}/x`, good, true);
    expect(r.error).toBe('ERR_TLS_CERT_ALTNAME_INVALID (pos.test)');
    expect((await get(`https://pos.test:${rx.port}/x`, good, false)).error).toBe(refusedHost('pos.test'));
  });
});

describe('webhook deliveries with a DNS server that never answers (EGRESS_DNS_SERVERS)', () => {
  let t: WebhookTestStack;
  let silent: TestDnsServer;
  let rx: HttpsReceiver;
  beforeAll(async () => {
    [silent, rx] = await Promise.all([startDnsServer({ silent: true }), startHttpsReceiver()]);
    t = await startWebhookStack({
      env: {
        EGRESS_DNS_SERVERS: silent.address,
        EGRESS_DNS_TIMEOUT: '2s',
        WEBHOOK_RETRY_SCALE: '0.01',
      },
    });
  });
  afterAll(async () => {
    await t?.stop();
    await Promise.all([silent?.close(), rx?.close()]);
  });

  it("other stores' deliveries arrive at once while 12 stores' webhook hosts hang in DNS", async () => {
    const hostile = await Promise.all(
      Array.from({ length: 12 }, (_, i) => t.addCredential({ url: `https://hook-${i}.slow.test/h` })),
    );
    const path = `/ok/${randomUUID()}`;
    const good = await t.addCredential({ url: rx.url + path });
    for (const h of hostile) for (let k = 0; k < 4; k++) await t.publish(h.merchantId);
    await new Promise((r) => setTimeout(r, 200));
    const sent = Date.now();
    await t.publish(good.merchantId);
    const [got] = await rx.waitFor(1, 10_000, (r) => r.path === path);
    expect(got.at - sent).toBeLessThan(1_500);
    await t.waitDeliveries(good.clientId, (d) => d[0]?.status === 'DELIVERED');
    // the hostile hosts were asked of the silent server and failed with the neutral text
    expect(silent.queries.some((q) => q.endsWith('.slow.test'))).toBe(true);
    await expect
      .poll(
        async () =>
          (
            (await t.admin('GET', `/admin/v1/credentials/${hostile[0].clientId}/webhook-attempts`)).body
              .items as { error: string }[]
          ).length,
        { timeout: 10_000 },
      )
      .toBeGreaterThan(0);
    const attempts = (await t.admin('GET', `/admin/v1/credentials/${hostile[0].clientId}/webhook-attempts`))
      .body.items as { error: string }[];
    expect(attempts[0].error).toBe(refusedHost('hook-0.slow.test'));
  });
});
