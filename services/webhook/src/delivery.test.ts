import { randomUUID } from 'node:crypto';
import { type HttpsReceiver, startHttpsReceiver } from '@od/testing';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newSecret, startWebhookStack, type WebhookTestStack } from './testkit.ts';

// retries after 0.5, 1 and 2 s instead of 5, 10 and 20 s
const SCALE = 0.1;

describe('webhook delivery', () => {
  let t: WebhookTestStack;
  let rx: HttpsReceiver;
  beforeAll(async () => {
    t = await startWebhookStack({ env: { WEBHOOK_RETRY_SCALE: String(SCALE) } });
    rx = await startHttpsReceiver();
  });
  afterAll(async () => {
    await rx?.close();
    await t?.stop();
  });

  it('delivers the envelope signed (Standard Webhooks and X-Service-* headers), logged as one attempt', async () => {
    const path = `/hook/${randomUUID()}`;
    const { clientId, merchantId, secret } = await t.addCredential({ url: rx.url + path });
    const ev = await t.publish(merchantId);
    const [got] = await rx.waitFor(1, 10_000, (r) => r.path === path);
    expect(got.method).toBe('POST');
    expect(got.headers['content-type']).toBe('application/json');
    // body: the envelope, nothing else
    expect(JSON.parse(got.rawBody)).toEqual(ev);
    // the unmodified standardwebhooks verifier accepts the webhook-* headers
    expect(new Webhook(secret).verify(got.rawBody, got.headers)).toEqual(ev);
    // ...and the same values under X-Service-*
    expect(got.headers['x-service-event-id']).toBe(ev.eventId);
    expect(got.headers['x-service-merchant-id']).toBe(merchantId);
    expect(got.headers['webhook-id']).toBe(ev.eventId);
    expect(got.headers['x-service-timestamp']).toBe(got.headers['webhook-timestamp']);
    expect(Math.abs(Number(got.headers['x-service-timestamp']) - Date.now() / 1000)).toBeLessThan(30);
    expect(
      new Webhook(secret).verify(got.rawBody, {
        'webhook-id': got.headers['x-service-event-id'],
        'webhook-timestamp': got.headers['x-service-timestamp'],
        'webhook-signature': got.headers['x-service-signature'],
      }),
    ).toEqual(ev);
    expect(() => new Webhook(newSecret()).verify(got.rawBody, got.headers)).toThrow();

    const items = await t.waitDeliveries(clientId, (d) => d[0]?.status === 'DELIVERED');
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({ eventId: ev.eventId, eventType: 'CREATED', attempts: 1, round: 1 });
    const log = await t.admin('GET', `/admin/v1/credentials/${clientId}/webhook-attempts`);
    expect(log.status).toBe(200);
    expect(log.body.items).toHaveLength(1);
    expect(log.body.items[0]).toMatchObject({
      eventId: ev.eventId,
      attempt: 1,
      round: 1,
      statusCode: 200,
      error: null,
      success: true,
      url: rx.url + path,
    });
    expect(log.body.items[0].durationMs).toBeGreaterThanOrEqual(0);
    expect(log.body.nextCursor).toBeNull();
  });

  it('resolves host names through the guarded lookup (https://localhost:<port>)', async () => {
    const path = `/named/${randomUUID()}`;
    const { clientId, merchantId, secret } = await t.addCredential({ url: rx.localhostUrl + path });
    const ev = await t.publish(merchantId);
    const [got] = await rx.waitFor(1, 10_000, (r) => r.path === path);
    expect(new Webhook(secret).verify(got.rawBody, got.headers)).toEqual(ev);
    await t.waitDeliveries(clientId, (d) => d[0]?.status === 'DELIVERED');
  });

  it('targets WEBHOOK and BOTH credentials of the store only, by the feed rules', async () => {
    const merchantId = randomUUID();
    const path = `/rules/${randomUUID()}`;
    const url = rx.url + path;
    const webhook = await t.addCredential({ merchantId, url: `${url}?c=webhook` });
    const both = await t.addCredential({ merchantId, url: `${url}?c=both`, mode: 'BOTH' });
    const polling = await t.addCredential({ merchantId, url: null, mode: 'POLLING' });
    const market = await t.addCredential({
      merchantId,
      url: `${url}?c=market`,
      includeMarketplaceOrders: true,
    });
    const paused = await t.addCredential({ merchantId, url: `${url}?c=paused`, status: 'PAUSED' });
    const other = await t.addCredential({ url: `${url}?c=other` });
    const older = await t.publish(merchantId, { createdAt: new Date(Date.now() - 3_600_000).toISOString() });
    const normal = await t.publish(merchantId);
    const marketplace = await t.publish(merchantId, { channel: 'MARKETPLACE' });
    await t.waitDeliveries(market.clientId, (d) => d.filter((x) => x.status === 'DELIVERED').length === 2);
    await t.waitDeliveries(webhook.clientId, (d) => d.some((x) => x.status === 'DELIVERED'));
    await t.waitDeliveries(both.clientId, (d) => d.some((x) => x.status === 'DELIVERED'));
    const got = rx.requests.filter((r) => r.path.startsWith(path));
    const by = (c: string) =>
      got
        .filter((r) => r.path.endsWith(`c=${c}`))
        .map((r) => JSON.parse(r.rawBody).eventId)
        .sort();
    expect(by('webhook')).toEqual([normal.eventId]);
    expect(by('both')).toEqual([normal.eventId]);
    expect(by('market')).toEqual([normal.eventId, marketplace.eventId].sort());
    expect(by('paused')).toEqual([]);
    expect(by('other')).toEqual([]);
    expect(got.some((r) => JSON.parse(r.rawBody).eventId === older.eventId)).toBe(false);
    // paused: recorded as skipped, never sent; polling-only and other stores: nothing recorded
    const p = await t.waitDeliveries(paused.clientId, (d) => d.length === 1);
    expect(p[0]).toMatchObject({
      eventId: normal.eventId,
      status: 'SKIPPED',
      skipReason: 'credential_paused',
    });
    expect(
      (await t.admin('GET', `/admin/v1/credentials/${polling.clientId}/webhook-deliveries`)).body.items,
    ).toEqual([]);
    expect(
      (await t.admin('GET', `/admin/v1/credentials/${other.clientId}/webhook-deliveries`)).body.items,
    ).toEqual([]);
  });

  it('retries after ~0.5, 1 and 2 s (scaled 5/10/20 s) and logs every attempt', async () => {
    const path = `/retry/${randomUUID()}`;
    rx.respond((r, i) => {
      if (!r.path.startsWith(path)) return {};
      const n = rx.requests.slice(0, i + 1).filter((x) => x.path.startsWith(path)).length;
      return n <= 2
        ? { status: 500 }
        : n === 3
          ? { status: 302, headers: { location: rx.url } }
          : { status: 204 };
    });
    const { clientId, merchantId } = await t.addCredential({ url: rx.url + path });
    const ev = await t.publish(merchantId);
    const got = await rx.waitFor(4, 15_000, (r) => r.path.startsWith(path));
    rx.respond({});
    const gaps = got.slice(1).map((r, i) => r.at - got[i].at);
    // 500, 1000, 2000 ms apart (generous upper margins: shared 2-core machine)
    expect(gaps[0]).toBeGreaterThanOrEqual(450);
    expect(gaps[0]).toBeLessThan(2_000);
    expect(gaps[1]).toBeGreaterThanOrEqual(950);
    expect(gaps[1]).toBeLessThan(3_000);
    expect(gaps[2]).toBeGreaterThanOrEqual(1_950);
    expect(gaps[2]).toBeLessThan(4_500);
    for (const r of got) expect(JSON.parse(r.rawBody).eventId).toBe(ev.eventId);
    const items = await t.waitDeliveries(clientId, (d) => d[0]?.status === 'DELIVERED');
    expect(items[0]).toMatchObject({ attempts: 4, lastStatusCode: 204 });
    const log = (await t.admin('GET', `/admin/v1/credentials/${clientId}/webhook-attempts`)).body.items;
    // newest first
    expect(log.map((a: any) => [a.attempt, a.statusCode, a.success])).toEqual([
      [4, 204, true],
      [3, 302, false],
      [2, 500, false],
      [1, 500, false],
    ]);
    expect(log[1].error).toMatch(/redirect not followed/);
    expect(Date.parse(log[0].startedAt)).toBeGreaterThan(Date.parse(log[3].startedAt));
    // pagination
    const p1 = await t.admin('GET', `/admin/v1/credentials/${clientId}/webhook-attempts?limit=3`);
    expect(p1.body.items.map((a: any) => a.attempt)).toEqual([4, 3, 2]);
    const p2 = await t.admin(
      'GET',
      `/admin/v1/credentials/${clientId}/webhook-attempts?limit=3&cursor=${p1.body.nextCursor}`,
    );
    expect(p2.body.items.map((a: any) => a.attempt)).toEqual([1]);
    expect(p2.body.nextCursor).toBeNull();
    expect((await t.admin('GET', `/admin/v1/credentials/${clientId}/webhook-attempts?limit=0`)).status).toBe(
      400,
    );
    expect((await t.admin('GET', `/admin/v1/credentials/${clientId}/webhook-attempts?cursor=x`)).status).toBe(
      400,
    );
  });

  it('gives up after four failed attempts: WEBHOOK_FAILED, no fifth request', async () => {
    const path = `/fail/${randomUUID()}`;
    rx.respond((r) => (r.path.startsWith(path) ? { status: 503 } : {}));
    const { clientId, merchantId } = await t.addCredential({ url: rx.url + path });
    const ev = await t.publish(merchantId);
    const items = await t.waitDeliveries(clientId, (d) => d[0]?.status === 'WEBHOOK_FAILED', 15_000);
    rx.respond({});
    expect(items[0]).toMatchObject({
      eventId: ev.eventId,
      attempts: 4,
      lastStatusCode: 503,
      nextAttemptAt: null,
    });
    await new Promise((r) => setTimeout(r, 2_500));
    expect(rx.requests.filter((r) => r.path.startsWith(path))).toHaveLength(4);
    const log = (await t.admin('GET', `/admin/v1/credentials/${clientId}/webhook-attempts`)).body.items;
    expect(log).toHaveLength(4);
    expect(log.every((a: any) => a.statusCode === 503 && a.error === 'HTTP 503' && !a.success)).toBe(true);
    const st = await t.admin('GET', `/admin/v1/credentials/${clientId}/webhook`);
    expect(st.body).toMatchObject({ consecutiveFailures: 1, deactivated: false, pending: 0 });
  });

  it('resends an event as a new round; 404 for events unknown to the credential', async () => {
    const path = `/resend/${randomUUID()}`;
    const { clientId, merchantId, secret } = await t.addCredential({ url: rx.url + path });
    const ev = await t.publish(merchantId);
    await rx.waitFor(1, 10_000, (r) => r.path === path);
    await t.waitDeliveries(clientId, (d) => d[0]?.status === 'DELIVERED');
    const r = await t.admin('POST', `/admin/v1/credentials/${clientId}/events/${ev.eventId}/resend`);
    expect(r.status).toBe(202);
    expect(r.body).toMatchObject({ eventId: ev.eventId, status: 'PENDING', round: 2, attempts: 0 });
    const got = await rx.waitFor(2, 10_000, (x) => x.path === path);
    expect(got[1].rawBody).toBe(got[0].rawBody);
    expect(new Webhook(secret).verify(got[1].rawBody, got[1].headers)).toEqual(ev);
    const items = await t.waitDeliveries(clientId, (d) => d[0]?.status === 'DELIVERED' && d[0].round === 2);
    expect(items[0].attempts).toBe(1);
    const log = (await t.admin('GET', `/admin/v1/credentials/${clientId}/webhook-attempts`)).body.items;
    expect(log.map((a: any) => [a.round, a.attempt])).toEqual([
      [2, 1],
      [1, 1],
    ]);

    // another store's event, an unknown GUID, not a GUID, an unknown credential
    const foreign = await t.publish(randomUUID());
    await new Promise((res) => setTimeout(res, 300));
    for (const path2 of [
      `/admin/v1/credentials/${clientId}/events/${foreign.eventId}/resend`,
      `/admin/v1/credentials/${clientId}/events/${randomUUID()}/resend`,
      `/admin/v1/credentials/${clientId}/events/not-a-guid/resend`,
      `/admin/v1/credentials/odc_000000000000000000000000/events/${ev.eventId}/resend`,
    ]) {
      const x = await t.admin('POST', path2);
      expect(x.status, path2).toBe(404);
      expect(x.body.error).toBe('not_found');
    }
  });

  it('resends an event the credential never had a delivery for (switched from polling)', async () => {
    const path = `/switch/${randomUUID()}`;
    const merchantId = randomUUID();
    const { clientId } = await t.addCredential({ merchantId, url: null, mode: 'POLLING' });
    const ev = await t.publish(merchantId);
    await new Promise((res) => setTimeout(res, 300));
    // a paused or polling credential cannot take a resend
    const x = await t.admin('POST', `/admin/v1/credentials/${clientId}/events/${ev.eventId}/resend`);
    expect(x.status).toBe(409);
    const { clientId: c2, secret } = await t.addCredential({
      merchantId,
      url: rx.url + path,
      createdAt: new Date(Date.now() - 120_000).toISOString(),
    });
    // c2 predates the event by its createdAt but did not exist at publish time (too old for backfill)
    const r = await t.admin('POST', `/admin/v1/credentials/${c2}/events/${ev.eventId}/resend`);
    expect(r.status).toBe(202);
    const [got] = await rx.waitFor(1, 10_000, (q) => q.path === path);
    expect(new Webhook(secret).verify(got.rawBody, got.headers)).toEqual(ev);
  });

  it('a credential seen after its first events were processed gets them (backfill)', async () => {
    const path = `/late/${randomUUID()}`;
    const merchantId = randomUUID();
    const createdAt = new Date(Date.now() - 1_000).toISOString();
    // the event is processed while the webhook service does not know the credential yet
    const ev = await t.publish(merchantId);
    await new Promise((res) => setTimeout(res, 300));
    const { clientId, secret } = await t.addCredential({ merchantId, url: rx.url + path, createdAt });
    const [got] = await rx.waitFor(1, 10_000, (r) => r.path === path);
    expect(new Webhook(secret).verify(got.rawBody, got.headers)).toEqual(ev);
    await t.waitDeliveries(clientId, (d) => d.length === 1 && d[0].status === 'DELIVERED');
  });

  it('signs with both secrets during a rotation', async () => {
    const path = `/rotate/${randomUUID()}`;
    const { clientId, merchantId, secret: old } = await t.addCredential({ url: rx.url + path });
    const fresh = newSecret();
    t.secrets.set(clientId, [fresh, old]);
    await new Promise((r) => setTimeout(r, 1_100)); // the service caches secrets for at most 1 s
    const ev = await t.publish(merchantId);
    const [got] = await rx.waitFor(1, 10_000, (r) => r.path === path);
    const sigs = got.headers['x-service-signature'].split(' ');
    expect(sigs).toHaveLength(2);
    expect(got.headers['webhook-signature']).toBe(got.headers['x-service-signature']);
    expect(new Webhook(fresh).verify(got.rawBody, got.headers)).toEqual(ev);
    expect(new Webhook(old).verify(got.rawBody, got.headers)).toEqual(ev);
  });

  it('never sends to an http:// URL: the attempt is logged with an error', async () => {
    const { clientId, merchantId } = await t.addCredential({ url: `http://127.0.0.1:${rx.port}/plain` });
    await t.publish(merchantId);
    const log = async () =>
      (await t.admin('GET', `/admin/v1/credentials/${clientId}/webhook-attempts`)).body.items;
    const deadline = Date.now() + 10_000;
    while ((await log()).length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    const [a] = await log();
    expect(a).toMatchObject({ statusCode: null, success: false, error: 'webhook URL must use https' });
    expect(rx.requests.some((r) => r.path === '/plain')).toBe(false);
  });

  it('answers 404 for unknown credentials and 400 for bad filters', async () => {
    for (const p of ['webhook-attempts', 'webhook-deliveries', 'webhook']) {
      const r = await t.admin('GET', `/admin/v1/credentials/odc_ffffffffffffffffffffffff/${p}`);
      expect(r.status).toBe(404);
      expect(r.body.error).toBe('not_found');
    }
    const r = await t.admin('POST', '/admin/v1/credentials/odc_ffffffffffffffffffffffff/webhook-queue/clear');
    expect(r.status).toBe(404);
    const { clientId } = await t.addCredential({ url: `${rx.url}/x` });
    expect(
      (await t.admin('GET', `/admin/v1/credentials/${clientId}/webhook-deliveries?status=NOPE`)).status,
    ).toBe(400);
  });
});
