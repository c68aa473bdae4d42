import { randomUUID } from 'node:crypto';
import { connect } from '@nats-io/transport-node';
import { openCredentialsKv } from '@od/bus';
import { CATALOG_OPS, DEFAULT_SCOPES, names } from '@od/contracts';
import { OD_SPEC_PATH } from '@od/opendelivery/validator';
import {
  type HttpsReceiver,
  requestToken,
  startHttpsReceiver,
  startStack,
  type TestStack,
} from '@od/testing';
import { OpenAPIBackend } from 'openapi-backend';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * Reading never implies writing (issue 22, item 1): the Open Delivery Merchant module's writes
 * (merchantOnboarding, menuUpdated, merchantStatus through menuUpdated) need `merchant:write`,
 * checked by the gateway AND by catalog. A credential with every default scope changes nothing.
 * And the bearer check trusts the credential's current scopes, not the token's claim (item 8).
 */
const POS_MERCHANT_ID = '22815773000169-dbc7e35a-c936-4665-9e13-eb55eb8b6824';
const API_KEY = `chave-${randomUUID()}`;

describe('write grants (catalog + auth, two gateways, HTTP only)', () => {
  let stack: TestStack;
  let pos: HttpsReceiver;
  let merchantId: string;
  let reader: { clientId: string; token: string };
  let writer: { clientId: string; token: string };

  const credential = async (scopes: readonly string[]) => {
    const r = await stack.admin('POST', `/admin/v1/merchants/${merchantId}/credentials`, {
      name: scopes.join(' '),
      scopes,
      deliveryMode: 'POLLING',
      apiProfile: 'OPEN_DELIVERY',
    });
    expect(r.status).toBe(201);
    const c = await r.json();
    const t = await requestToken(stack, c.clientId, c.clientSecret);
    return { clientId: c.clientId as string, token: (await t.json()).access_token as string };
  };
  const call = async (token: string, method: string, path: string, body?: unknown, gw = 0) => {
    const r = await stack.api(
      path,
      {
        method,
        headers: {
          authorization: `Bearer ${token}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      },
      gw,
    );
    const text = await r.text();
    return { status: r.status, body: text ? JSON.parse(text) : undefined };
  };
  /** what an observer sees of the store: its fields, its menu and whether the point of sale was read */
  const snapshot = async () => {
    const store = await (await stack.admin('GET', `/admin/v1/merchants/${merchantId}`)).json();
    const menus = (await call(reader.token, 'GET', `/v1/merchant/${merchantId}/menus`)).body;
    return { store, menus, posReads: pos.requests.length };
  };
  const onboarding = (url: string) => ({ getMerchantURL: { baseURL: url, apiKey: API_KEY } });
  /** every store write, the status one flipping the store's current status */
  const writes = (status: string) =>
    [
      ['PUT', `/v1/merchantOnboarding?merchantId=${POS_MERCHANT_ID}`, onboarding(`${pos.url}/intruso`)],
      ['POST', '/v1/menuUpdated', { merchantStatus: status === 'AVAILABLE' ? 'UNAVAILABLE' : 'AVAILABLE' }],
      ['POST', '/v1/menuUpdated', undefined],
      ['POST', '/v1/menuUpdated', { entityType: 'MENU', updatedObjects: [{ id: 'x' }] }],
    ] as const;

  beforeAll(async () => {
    const api = new OpenAPIBackend({ definition: OD_SPEC_PATH, quick: true });
    const [s, p] = await Promise.all([
      startStack({
        services: ['catalog', 'auth'],
        gateways: 2,
        // each menuUpdated below reads the point of sale again at once (no per-store cooldown)
        env: { RATE_LIMIT_ENABLED: 'false', OD_MERCHANT_FETCH_COOLDOWN: '0ms' },
      }),
      startHttpsReceiver(),
      api.init(),
    ]);
    stack = s;
    pos = p;
    const example = (api.definition as any).components.examples.merchantExample.value;
    pos.respond({
      status: 200,
      body: JSON.stringify(example),
      headers: { 'content-type': 'application/json' },
    });
    const store = await stack.admin('POST', '/admin/v1/merchants', { name: 'Loja de leitura' });
    merchantId = (await store.json()).id;
    reader = await credential(DEFAULT_SCOPES);
    writer = await credential([...DEFAULT_SCOPES, 'merchant:write']);
  });
  afterAll(async () => {
    await pos?.close();
    await stack?.stop();
  });

  it('the default scopes are every read and order scope, never merchant:write', () => {
    expect(DEFAULT_SCOPES).toEqual(['orders:read', 'orders:write', 'merchant:read', 'catalog:read']);
  });

  it('a credential with every default scope gets 403 on each store write, and nothing changes', async () => {
    const before = await snapshot();
    expect(before.store.status).toBe('AVAILABLE');
    for (const [method, path, body] of writes(before.store.status)) {
      const res = await call(reader.token, method, path, body);
      expect(res.status, `${method} ${path}`).toBe(403);
      // OPEN_DELIVERY credential: the standard's error form
      expect(res.body).toMatchObject({ status: 403 });
    }
    expect(await snapshot()).toEqual(before);
    // never onboarded: the merchant status still has no read to report
    expect((await call(reader.token, 'GET', `/v1/merchantStatus?merchantId=${merchantId}`)).status).toBe(404);
  });

  it('with merchant:write the same calls work: onboarding, status, menu', async () => {
    const put = await call(
      writer.token,
      'PUT',
      `/v1/merchantOnboarding?merchantId=${POS_MERCHANT_ID}`,
      onboarding(`${pos.url}/pdv/merchant`),
    );
    expect(put.status).toBe(201);
    expect((await call(writer.token, 'POST', '/v1/menuUpdated')).status).toBe(204);
    expect(pos.requests.at(-1)?.path).toBe('/pdv/merchant');
    const after = await snapshot();
    expect(after.store.name).toBe('Pizza Plaza');
    expect(after.menus[0].name).toBe('Pizzas');
    const close = await call(writer.token, 'POST', '/v1/menuUpdated', { merchantStatus: 'UNAVAILABLE' }, 1);
    expect(close.status).toBe(204);
    expect((await (await stack.admin('GET', `/admin/v1/merchants/${merchantId}`)).json()).status).toBe(
      'UNAVAILABLE',
    );
  });

  it('after onboarding, a reader still cannot move the onboarding URL, reopen the store or rewrite the menu', async () => {
    const before = await snapshot();
    expect(before.store.status).toBe('UNAVAILABLE');
    for (const [method, path, body] of writes(before.store.status)) {
      expect((await call(reader.token, method, path, body, 1)).status, `${method} ${path}`).toBe(403);
    }
    expect(await snapshot()).toEqual(before);
    // the writer's next read still goes to the URL it registered, not the intruder's
    expect((await call(writer.token, 'POST', '/v1/menuUpdated')).status).toBe(204);
    expect(pos.requests.at(-1)?.path).toBe('/pdv/merchant');
    expect(pos.requests.some((r) => r.path.startsWith('/intruso'))).toBe(false);
  });

  it('catalog refuses a write op to a principal without merchant:write, whatever the gateway did', async () => {
    const status = async () =>
      (await (await stack.admin('GET', `/admin/v1/merchants/${merchantId}`)).json()).status as string;
    const before = await status();
    const flip = before === 'AVAILABLE' ? 'UNAVAILABLE' : 'AVAILABLE';
    const call = (scopes: string[]) =>
      stack.gateway.ctx.rpc.call(
        CATALOG_OPS.odMenuUpdated,
        { body: { merchantStatus: flip } },
        {
          traceId: randomUUID(),
          principal: { kind: 'credential', clientId: reader.clientId, merchantId, scopes },
        },
      );
    const refused = await call([...DEFAULT_SCOPES]);
    expect(refused.status).toBe(403);
    expect(JSON.parse(new TextDecoder().decode(refused.body))).toMatchObject({ error: 'insufficient_scope' });
    expect(await status()).toBe(before);
    expect((await call([...DEFAULT_SCOPES, 'merchant:write'])).status).toBe(204);
    expect(await status()).toBe(flip);
  });

  it('a scope withdrawn after the token was issued is refused at the next request, at every replica', async () => {
    // the token still claims merchant:write; the credential's record (pushed by auth) no longer has it
    const nc = await connect({ servers: stack.config.NATS_URL });
    try {
      const kv = await openCredentialsKv(nc, names(stack.config.NATS_PREFIX));
      const current = (await kv.get(writer.clientId))?.json<Record<string, unknown>>();
      expect(current?.scopes).toContain('merchant:write');
      const rev = await kv.put(writer.clientId, JSON.stringify({ ...current, scopes: ['merchant:read'] }));
      for (const g of stack.gateways) expect(await g.ctx.credentials.waitForRevision(rev)).toBe(true);
    } finally {
      await nc.close();
    }
    for (const gw of [0, 1]) {
      const write = await call(writer.token, 'POST', '/v1/menuUpdated', { merchantStatus: 'AVAILABLE' }, gw);
      expect(write.status, `gateway ${gw}`).toBe(403);
      const menus = await call(writer.token, 'GET', `/v1/merchant/${merchantId}/menus`, undefined, gw);
      expect(menus.status, `gateway ${gw}`).toBe(403);
      expect((await call(writer.token, 'GET', `/v1/merchant/${merchantId}`, undefined, gw)).status).toBe(200);
    }
  });
});
