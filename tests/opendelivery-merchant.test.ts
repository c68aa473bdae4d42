import { randomUUID } from 'node:crypto';
import { OD_SPEC_PATH, type OdValidator, odValidator } from '@od/opendelivery/validator';
import {
  type HttpsReceiver,
  type ReceivedRequest,
  requestToken,
  startHttpsReceiver,
  startStack,
  type TestStack,
} from '@od/testing';
import { OpenAPIBackend } from 'openapi-backend';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * The standard's Merchant module in its own direction through the real stack: the point of sale
 * (a stub HTTPS server serving the official YAML's own `merchantExample`) registers its
 * `GET /v1/merchant`, notifies `POST /v1/menuUpdated`, and the store and its menu are replaced.
 */
const SCOPES = ['orders:read', 'orders:write', 'merchant:read', 'catalog:read', 'merchant:write'];
const POS_MERCHANT_ID = '22815773000169-dbc7e35a-c936-4665-9e13-eb55eb8b6824';
const API_KEY = `chave-${randomUUID()}`;

/** The standard's example Merchant document, taken from the official file itself. */
async function officialExample(): Promise<Record<string, any>> {
  const api = new OpenAPIBackend({ definition: OD_SPEC_PATH, quick: true });
  await api.init();
  const ex = (api.definition as any).components.examples.merchantExample.value;
  return structuredClone(ex);
}

interface Harness {
  stack: TestStack;
  merchantId: string;
  odToken: string;
  specToken: string;
  call(token: string, method: string, path: string, body?: unknown): Promise<{ r: Response; body: any }>;
}

async function harness(env: Record<string, string> = {}): Promise<Harness> {
  const stack = await startStack({
    services: ['catalog', 'auth'],
    // back-to-back reads in these tests: no cooldown (tests/od-hostile-pos.test.ts has it)
    env: { RATE_LIMIT_ENABLED: 'false', OD_MERCHANT_FETCH_COOLDOWN: '0ms', ...env },
  });
  const admin = async (path: string, body: unknown) => {
    const r = await stack.admin('POST', path, body);
    expect(r.status).toBe(201);
    return (await r.json()) as Record<string, any>;
  };
  const store = await admin('/admin/v1/merchants', { name: 'Loja antes do PDV' });
  const token = async (apiProfile: string) => {
    const c = await admin(`/admin/v1/merchants/${store.id}/credentials`, {
      name: `pdv ${apiProfile}`,
      scopes: SCOPES,
      deliveryMode: 'POLLING',
      apiProfile,
    });
    const t = await requestToken(stack, c.clientId, c.clientSecret);
    return ((await t.json()) as { access_token: string }).access_token;
  };
  return {
    stack,
    merchantId: store.id,
    odToken: await token('OPEN_DELIVERY'),
    specToken: await token('SPEC'),
    async call(token, method, path, body) {
      const r = await stack.api(path, {
        method,
        headers: {
          authorization: `Bearer ${token}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await r.text();
      return { r, body: text ? JSON.parse(text) : undefined };
    },
  };
}

describe('Open Delivery Merchant module (catalog + auth, HTTP only)', () => {
  let h: Harness;
  let pos: HttpsReceiver;
  let od: OdValidator;
  let example: Record<string, any>;
  /** what the point of sale serves at GET /v1/merchant */
  let serving: { status?: number; body: string };

  const merchantReads = () =>
    pos.requests.filter((r) => r.method === 'GET' && r.path === '/pdv/loja-1/merchant');
  const expectOdError = (res: { r: Response; body: any }, status: number, title: RegExp) => {
    expect(res.r.status).toBe(status);
    expect(res.r.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    // the standard's Error schema (any operation's 400 / 404 in the official document)
    expect(od.response('getMerchantStatus', status, res.body)).toEqual([]);
    expect(res.body.title).toMatch(title);
  };
  const publicStore = async () => ({
    merchant: (await h.call(h.odToken, 'GET', `/v1/merchant/${h.merchantId}`)).body,
    menus: (await h.call(h.odToken, 'GET', `/v1/merchant/${h.merchantId}/menus`)).body,
  });
  const status = (merchantId: string) =>
    h.call(h.odToken, 'GET', `/v1/merchantStatus?merchantId=${encodeURIComponent(merchantId)}`);

  beforeAll(async () => {
    [h, pos, od, example] = await Promise.all([
      harness(),
      startHttpsReceiver(),
      odValidator(),
      officialExample(),
    ]);
    serving = { body: JSON.stringify(example) };
    pos.respond((req: ReceivedRequest) =>
      req.headers['x-api-key'] === API_KEY
        ? {
            status: serving.status ?? 200,
            body: serving.body,
            headers: { 'content-type': 'application/json' },
          }
        : { status: 403, body: '{"title":"Forbidden","status":403}' },
    );
  });
  afterAll(async () => {
    await pos?.close();
    await h?.stack.stop();
  });

  it('is part of the OPEN_DELIVERY profile only: a SPEC credential gets the 404 of an unknown route', async () => {
    for (const [method, path] of [
      ['POST', '/v1/menuUpdated'],
      ['POST', '/v1/merchantUpdate'],
      ['GET', '/v1/merchantStatus?merchantId=x'],
      ['PUT', '/v1/merchantOnboarding?merchantId=x'],
    ] as const) {
      const res = await h.call(h.specToken, method, path, method === 'PUT' ? {} : undefined);
      expect(res.r.status).toBe(404);
      expect(res.body).toMatchObject({ title: 'Not Found', status: 404 });
    }
  });

  it('menuUpdated before onboarding: a clear 400 in the standard error form', async () => {
    expectOdError(await h.call(h.odToken, 'POST', '/v1/menuUpdated'), 400, /merchantOnboarding/);
    expectOdError(await status(POS_MERCHANT_ID), 404, /Not Found/);
  });

  it('merchantOnboarding: https only; 201 with the registration (no api key) the first time, 204 after', async () => {
    const put = (body: unknown, merchantId = POS_MERCHANT_ID) =>
      h.call(h.odToken, 'PUT', `/v1/merchantOnboarding?merchantId=${merchantId}`, body);
    expectOdError(
      await put({ getMerchantURL: { baseURL: 'http://pdv.example.com/merchant' } }),
      400,
      /https/,
    );
    expectOdError(await put({ ordersWebhookURL: `${pos.url}/pdv` }), 400, /getMerchantURL/);
    const noUrl = await put({ getMerchantURL: { apiKey: 'x' } });
    expectOdError(noUrl, 400, /validation/);
    expect(Object.keys(noUrl.body.errors)).toEqual(['getMerchantURL.baseURL']);
    // the body is checked once, by catalog: not an object, or null, is the same 400
    for (const body of [[1], null]) expect((await put(body)).r.status).toBe(400);
    const first = await put({
      getMerchantURL: { baseURL: `${pos.url}/pdv/loja-1/merchant`, apiKey: 'chave-antiga' },
      ordersWebhookURL: `${pos.url}/pdv`,
    });
    expect(first.r.status).toBe(201);
    expect(first.body).toEqual({
      getMerchantURL: { baseURL: `${pos.url}/pdv/loja-1/merchant` },
      ordersWebhookURL: `${pos.url}/pdv`,
    });
    expect(od.response('putMerchantOnboarding', 201, first.body)).toEqual([]);
    expect(JSON.stringify(first.body)).not.toContain('chave-antiga');
    const again = await put({
      getMerchantURL: { baseURL: `${pos.url}/pdv/loja-1/merchant`, apiKey: API_KEY },
    });
    expect(again.r.status).toBe(204);
    expect(again.body).toBeUndefined();
  });

  it('menuUpdated reads GET /v1/merchant with the api key, validates it and replaces the store and its menu', async () => {
    const before = merchantReads().length;
    const res = await h.call(h.odToken, 'POST', '/v1/menuUpdated');
    expect(res.r.status).toBe(204);
    const reads = merchantReads();
    expect(reads.length).toBe(before + 1);
    expect(reads.at(-1)?.headers['x-api-key']).toBe(API_KEY);

    const { merchant, menus } = await publicStore();
    expect(merchant).toMatchObject({
      id: h.merchantId,
      name: 'Pizza Plaza',
      description: 'Food company specializing in pizzas.',
      document: '22815773000169',
      status: 'AVAILABLE',
      contactEmails: ['food@company.com'],
      contactPhones: ['11999999999', '11998888888'],
      address: {
        city: 'São Paulo',
        district: 'Moema',
        street: 'Plaza Avenue',
        number: '100',
        latitude: -23.54804,
      },
      services: [
        { serviceType: 'DELIVERY', status: 'AVAILABLE', menuId: 'f627ccdc-6789-456f-a782-148538d5035b' },
      ],
    });
    expect(menus).toHaveLength(1);
    const [menu] = menus;
    expect(menu.id).toBe('f627ccdc-6789-456f-a782-148538d5035b');
    expect(menu.name).toBe('Pizzas');
    expect(menu.categories.map((c: any) => [c.name, c.itemOfferIds])).toEqual([
      ['Salted Pizza', ['f080cfb3-5c4a-4eb7-907d-2de3bbb5dfb9']],
      ['Sweeted Pizza', ['377b99ba-5413-43d1-b875-7cdcaa72860e']],
    ]);
    // an item offer is a menu item named after its item; an option is named after its item
    const medium = menu.items.find((i: any) => i.id === 'f080cfb3-5c4a-4eb7-907d-2de3bbb5dfb9');
    expect(medium).toMatchObject({
      name: 'Medium - 2 flavors',
      externalCode: '23',
      price: { value: 43, originalValue: 43, currency: 'BRL' },
      optionGroupIds: ['fe67e551-f42f-499a-8afb-0ed893c71fa3'],
      image: 'https://www.food-place.com/images/medium-pizza.png',
    });
    const salted = menu.optionGroups.find((g: any) => g.id === 'fe67e551-f42f-499a-8afb-0ed893c71fa3');
    expect(salted).toMatchObject({ minPermitted: 2, maxPermitted: 2 });
    expect(salted.options.map((o: any) => [o.name, o.price.value])).toEqual([
      ['1/2 Pepperoni', 50],
      ['1/2 Mozzarella', 43],
    ]);

    for (const id of [POS_MERCHANT_ID, h.merchantId]) {
      const s = await status(id);
      expect(s.r.status).toBe(200);
      expect(od.response('getMerchantStatus', 200, s.body)).toEqual([]);
      expect(s.body.status).toBe('SUCCESS');
      expect(s.body.moreInfo).toMatch(/atualizados: \d+ itens/);
      expect(Date.now() - Date.parse(s.body.lastRead)).toBeLessThan(60_000);
    }
    // the standard's other name of this webhook: same op, same scope
    const alias = await h.call(h.odToken, 'POST', '/v1/merchantUpdate');
    expect(alias.r.status).toBe(204);
    expect(merchantReads().length).toBe(before + 2);
    expect((await h.call(h.specToken, 'POST', '/v1/merchantUpdate')).r.status).toBe(404);
    expectOdError(await status(randomUUID()), 404, /Not Found/);
  });

  it('an invalid document is a clear 400 naming the problems; nothing changes; merchantStatus says FAIL', async () => {
    const before = await publicStore();
    const cases: [string, { status?: number; body: string }, RegExp][] = [
      [
        'missing required parts',
        { body: JSON.stringify({ ...example, basicInfo: undefined, menus: 'x' }) },
        /schema Merchant/,
      ],
      ['not JSON', { body: '<html>oops</html>' }, /não é JSON/],
      ['an error answer', { status: 500, body: '{}' }, /HTTP 500/],
      ['a redirect', { status: 302, body: '' }, /HTTP 302/],
      [
        'another merchant',
        { body: JSON.stringify({ ...example, id: `00000000000000-${randomUUID()}` }) },
        /outro estabelecimento/,
      ],
      [
        'valid for the standard, a broken reference for the platform',
        {
          body: JSON.stringify({
            ...example,
            itemOffers: example.itemOffers.map((o: any) => ({ ...o, itemId: 'nenhum' })),
          }),
        },
        /regras da plataforma/,
      ],
      [
        'larger than 1 MiB',
        { body: JSON.stringify({ ...example, padding: 'x'.repeat(1024 * 1024) }) },
        /bytes/,
      ],
    ];
    for (const [what, served, title] of cases) {
      serving = served;
      const res = await h.call(h.odToken, 'POST', '/v1/menuUpdated', {});
      expectOdError(res, 400, title);
      if (what === 'missing required parts') {
        expect(res.body.error).toBe('invalid_merchant_document');
        expect(Object.keys(res.body.errors)).toEqual(expect.arrayContaining(['/']));
        expect(JSON.stringify(res.body.errors)).toMatch(/basicInfo/);
      }
      const s = await status(POS_MERCHANT_ID);
      expect(s.body.status).toBe('FAIL');
      expect(s.body.moreInfo).toMatch(title);
    }
    expect(await publicStore()).toEqual(before);
    serving = { body: JSON.stringify(example) };
  });

  it('merchantStatus alone opens or closes the store without a read; entityType needs updatedObjects', async () => {
    const reads = merchantReads().length;
    expect(
      (await h.call(h.odToken, 'POST', '/v1/menuUpdated', { merchantStatus: 'UNAVAILABLE' })).r.status,
    ).toBe(204);
    expect((await publicStore()).merchant.status).toBe('UNAVAILABLE');
    expect(merchantReads().length).toBe(reads);
    expectOdError(
      await h.call(h.odToken, 'POST', '/v1/menuUpdated', { entityType: 'ITEM', updatedObjects: [] }),
      400,
      /updatedObjects/,
    );
    const closed = await h.call(h.odToken, 'POST', '/v1/menuUpdated', { merchantStatus: 'FECHADO' });
    expectOdError(closed, 400, /validation/);
    expect(Object.keys(closed.body.errors)).toEqual(['merchantStatus']);
    // a partial update re-reads the whole document: the document's status applies again
    const partial = await h.call(h.odToken, 'POST', '/v1/menuUpdated', {
      entityType: 'ITEM',
      updatedObjects: [example.items[0]],
    });
    expect(partial.r.status).toBe(204);
    expect(merchantReads().length).toBe(reads + 1);
    expect((await publicStore()).merchant.status).toBe('AVAILABLE');
  });
});

describe('Open Delivery merchant read under the SSRF rules (private networks not allowed)', () => {
  let h: Harness;
  let pos: HttpsReceiver;
  beforeAll(async () => {
    [h, pos] = await Promise.all([
      harness({ WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'false' }),
      startHttpsReceiver(),
    ]);
  });
  afterAll(async () => {
    await pos?.close();
    await h?.stack.stop();
  });

  it('a point of sale on a loopback or metadata address is refused before any connection', async () => {
    for (const url of [
      `${pos.url}/merchant`,
      `${pos.localhostUrl}/merchant`,
      'https://169.254.169.254/latest/meta-data',
    ]) {
      const put = await h.call(h.odToken, 'PUT', `/v1/merchantOnboarding?merchantId=${POS_MERCHANT_ID}`, {
        getMerchantURL: { baseURL: url },
      });
      expect([201, 204]).toContain(put.r.status);
      const res = await h.call(h.odToken, 'POST', '/v1/menuUpdated');
      expect(res.r.status).toBe(400);
      expect(res.r.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(res.body.title).toMatch(/refused \(no public address\)/);
      // a name is reported as given, never with the address it resolved to
      if (url.includes('localhost')) expect(res.body.title).not.toMatch(/127\.0\.0\.1|::1/);
    }
    expect(pos.requests).toHaveLength(0);
  });
});
