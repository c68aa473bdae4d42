import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { BUS_IDENTITIES, type BusIdentity, busConnectionOptions, natsServerConfig } from '@od/bus';
import { names } from '@od/contracts';
import {
  createMerchant,
  freePort,
  type HttpsReceiver,
  requestToken,
  startHttpsReceiver,
  startStack,
  type TestStack,
  uniquePrefix,
} from '@od/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findNatsServer, type RunningNats, startNatsServer } from '../scripts/lib/nats-server.ts';
import { STALE_AFTER_MS } from '../services/gateway/src/auth/credentials-sync.ts';
import { storeUser } from '../services/panel/src/test-helpers.ts';

/**
 * The secured bus: a second nats-server (its own port and JetStream directory) with the generated
 * configuration (libs/bus/src/permissions.ts, the same that makes deploy/nats/nats.conf), and the
 * whole stack on it, each service with its own identity.
 */
describe('secured bus: one NATS identity per service, nothing for anonymous clients', () => {
  const prefix = uniquePrefix();
  const n = names(prefix);
  const passwords = Object.fromEntries(
    BUS_IDENTITIES.map((id) => [id, randomBytes(18).toString('base64url')]),
  ) as Record<BusIdentity, string>;
  let dir: string;
  let server: RunningNats;
  let startServer: () => Promise<RunningNats>;
  let stack: TestStack;
  let rx: HttpsReceiver;
  const open: NatsConnection[] = [];

  beforeAll(async () => {
    const bin = findNatsServer();
    if (!bin) throw new Error('nats-server not found (NATS_SERVER_BIN, PATH or /usr/sbin/nats-server)');
    dir = mkdtempSync(path.join(os.tmpdir(), 'od-nats-secured-'));
    const port = await freePort();
    startServer = () =>
      startNatsServer({
        bin,
        dir,
        port,
        config: (storeDir) => natsServerConfig({ prefix, listen: `127.0.0.1:${port}`, storeDir, passwords }),
      });
    server = await startServer();
    stack = await startStack({
      prefix,
      panel: true,
      env: { NATS_URL: server.url, RATE_LIMIT_ENABLED: 'false', WEBHOOK_RETRY_SCALE: '0.1' },
      serviceEnv: Object.fromEntries(
        BUS_IDENTITIES.map((id) => [id, { NATS_USER: id, NATS_PASSWORD: passwords[id] }]),
      ),
    });
    rx = await startHttpsReceiver();
  });
  afterAll(async () => {
    for (const nc of open) await nc.close().catch(() => {});
    await rx?.close();
    await stack?.stop();
    await server?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const violations = () =>
    server
      .output()
      .split('\n')
      .filter((l) => /Violation/.test(l));
  const as = async (id: BusIdentity) => {
    const nc = await connect(
      busConnectionOptions({ NATS_URL: server.url, NATS_USER: id, NATS_PASSWORD: passwords[id] }, id),
    );
    open.push(nc);
    return nc;
  };
  /** the first permission error the server reports to `nc` after `act` (undefined: none in 1.5 s) */
  const refusal = async (nc: NatsConnection, act: () => unknown): Promise<string | undefined> => {
    const next = (async () => {
      for await (const s of nc.status()) if (s.type === 'error') return String(s.error);
      return undefined;
    })();
    await Promise.resolve(act()).catch(() => {});
    await nc.flush().catch(() => {});
    return Promise.race([next, new Promise<undefined>((r) => setTimeout(() => r(undefined), 1_500))]);
  };

  it('the whole stack works with the identities: store, credential, token, order, polling, webhook, confirm', async () => {
    const { merchantId } = await createMerchant(stack);
    const c = await stack.admin('POST', `/admin/v1/merchants/${merchantId}/credentials`, {
      name: 'PDV',
      scopes: ['orders:read', 'orders:write', 'merchant:read'],
      deliveryMode: 'BOTH',
      webhookUrl: `${rx.url}/hook`,
    });
    expect(c.status).toBe(201);
    const { clientId, clientSecret } = (await c.json()) as { clientId: string; clientSecret: string };
    const t = await requestToken(stack, clientId, clientSecret);
    expect(t.status).toBe(200);
    const auth = { authorization: `Bearer ${((await t.json()) as { access_token: string }).access_token}` };
    // the webhook service sees the credential through the KV bucket before the order is placed
    for (
      let i = 0;
      (await stack.admin('GET', `/admin/v1/credentials/${clientId}/webhook`)).status !== 200;
      i++
    ) {
      if (i > 200) throw new Error('credential never reached the webhook service');
      await new Promise((r) => setTimeout(r, 20));
    }
    const o = await stack.admin('POST', `/admin/v1/merchants/${merchantId}/orders`, { type: 'DELIVERY' });
    expect(o.status).toBe(201);
    const orderId = ((await o.json()) as { id: string }).id;
    // polling (feed consumer), then the signed webhook (webhook consumer + secrets from auth)
    let events: { orderId: string; eventType: string }[] = [];
    for (let i = 0; i < 200 && !events.some((e) => e.orderId === orderId); i++) {
      const p = await stack.api('/v1/events:polling', { headers: auth });
      events = p.status === 200 ? ((await p.json()) as typeof events) : [];
      if (!events.length) await new Promise((r) => setTimeout(r, 50));
    }
    expect(events).toContainEqual(expect.objectContaining({ orderId, eventType: 'CREATED' }));
    const [hook] = await rx.waitFor(1, 10_000, (r) => JSON.parse(r.rawBody).orderId === orderId);
    expect(hook.headers['webhook-signature']).toMatch(/^v1,/);
    const confirm = await stack.api(`/v1/orders/${orderId}/confirm`, { method: 'POST', headers: auth });
    expect(confirm.status).toBe(202);
    const pause = await stack.admin('POST', `/admin/v1/credentials/${clientId}/pause`);
    expect(await pause.json()).not.toHaveProperty('unconfirmedGateways');
    expect((await stack.api(`/v1/orders/${orderId}`, { headers: auth })).status).toBe(401);
    // no identity ever needed more than its permissions
    expect(violations()).toEqual([]);
  });

  it("the panel's screens read through ops its identity may call (menu, store, credentials, orders)", async () => {
    const owner = await storeUser(stack, 'OWNER');
    const put = await owner.client.call('PUT', `/panel/api/stores/${owner.merchantId}/menu`, {
      id: randomUUID(),
      items: [],
      categories: [],
      optionGroups: [],
    });
    expect(put.status).toBeLessThan(500);
    for (const screen of ['', '/menu', '/credentials', '/orders']) {
      const r = await owner.client.call('GET', `/panel/api/stores/${owner.merchantId}${screen}`);
      expect({ screen, status: r.status }).toEqual({ screen, status: 200 });
    }
    const menu = (await (
      await owner.client.call('GET', `/panel/api/stores/${owner.merchantId}/menu`)
    ).json()) as {
      menu: unknown;
    };
    expect(menu).toHaveProperty('menu');
    expect(violations()).toEqual([]);
  });

  it('an anonymous client, or a wrong password, is refused', async () => {
    await expect(connect({ servers: server.url })).rejects.toThrow(/Authorization Violation/);
    await expect(connect({ servers: server.url, user: 'gateway', pass: 'wrong' })).rejects.toThrow(
      /Authorization Violation/,
    );
  });

  it('a service cannot act outside its permissions', async () => {
    const feed = await as('feed');
    const gateway = await as('gateway');
    const webhook = await as('webhook');
    const catalog = await as('catalog');
    const denied = [
      // only orders publishes order events
      [feed, () => feed.publish(n.orderEventSubject(randomUUID()), '{}')],
      [gateway, () => gateway.publish(n.orderEventSubject(randomUUID()), '{}')],
      // only webhook asks auth for webhook secrets; the gateway calls no internal op
      [gateway, () => gateway.request(n.rpc('auth', 'internal.webhookSecrets'), '{}', { timeout: 500 })],
      [feed, () => feed.request(n.rpc('auth', 'internal.webhookSecrets'), '{}', { timeout: 500 })],
      // nobody but auth serves auth's subjects, nobody reads another's replies or everything
      [catalog, () => catalog.subscribe(n.rpc('auth', 'credentials.create'))],
      [gateway, () => gateway.subscribe('_INBOX.>')],
      [webhook, () => webhook.subscribe('>')],
      // only auth writes the credentials bucket; catalog cannot even read it
      [webhook, () => webhook.publish(`$KV.${n.credentialsBucket}.odc_000000000000000000000000`, '{}')],
      [
        catalog,
        () => catalog.request(`$JS.API.CONSUMER.CREATE.KV_${n.credentialsBucket}`, '{}', { timeout: 500 }),
      ],
      // the gateway cannot delete the order stream nor the consumers
      [gateway, () => gateway.request(`$JS.API.STREAM.DELETE.${n.orderEventsStream}`, '', { timeout: 500 })],
      [
        feed,
        () => feed.request(`$JS.API.CONSUMER.DELETE.${n.orderEventsStream}.webhook`, '', { timeout: 500 }),
      ],
    ] as const;
    for (const [nc, act] of denied) {
      const why = await refusal(nc, act);
      expect(why, act.toString()).toMatch(/Permissions Violation/);
    }
    // within its permissions: no refusal
    expect(await refusal(catalog, () => catalog.publish(n.catalogChanged, randomUUID()))).toBeUndefined();
  });

  it('a gateway cut off from the bus beyond the bound refuses bearer requests with 503, until it is back', async () => {
    const { merchantId } = await createMerchant(stack);
    const c = await stack.admin('POST', `/admin/v1/merchants/${merchantId}/credentials`, {
      name: 'PDV',
      scopes: ['merchant:read'],
      deliveryMode: 'POLLING',
    });
    const { clientId, clientSecret } = (await c.json()) as { clientId: string; clientSecret: string };
    const token = (
      (await (await requestToken(stack, clientId, clientSecret)).json()) as { access_token: string }
    ).access_token;
    const read = () =>
      stack.api(`/v1/merchant/${merchantId}`, { headers: { authorization: `Bearer ${token}` } });
    expect((await read()).status).toBe(200);
    await server.stop();
    await new Promise((r) => setTimeout(r, STALE_AFTER_MS + 1_000));
    expect((await read()).status).toBe(503);
    server = await startServer(); // same port and JetStream directory: every service reconnects
    let status = 0;
    for (let i = 0; i < 200 && status !== 200; i++) {
      status = (await read()).status;
      if (status !== 200) await new Promise((r) => setTimeout(r, 100));
    }
    expect(status).toBe(200);
  });
});
