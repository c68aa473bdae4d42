import { randomUUID } from 'node:crypto';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { CATALOG_OPS, INTERNAL_OPS, merchantSchema } from '@od/contracts';
import { issueTestToken, startStack, type TestStack, testRpc } from '@od/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sampleMenu, sampleMerchant } from '../domain/sample.ts';

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** the public Merchant's part of an admin view (which adds the test flag and the store's day) */
const publicOf = (admin: Record<string, unknown>) =>
  Object.fromEntries(Object.keys(merchantSchema.shape).map((k) => [k, admin[k]]));

describe('catalog through the gateway', () => {
  let stack: TestStack;
  let store: Record<string, any>;
  let other: Record<string, any>;
  let token: string;
  let menuIds: ReturnType<typeof sampleMenu>['ids'];

  const get = (path: string, t = token, headers: Record<string, string> = {}) =>
    stack.api(path, { headers: { authorization: `Bearer ${t}`, ...headers } });

  beforeAll(async () => {
    stack = await startStack({ services: ['catalog'] });
    const res = await stack.admin('POST', '/admin/v1/merchants', { ...sampleMerchant(), test: true });
    expect(res.status).toBe(201);
    store = await res.json();
    const sample = sampleMenu();
    menuIds = sample.ids;
    const put = await stack.admin('PUT', `/admin/v1/merchants/${store.id}/menu`, sample.menu);
    expect(put.status).toBe(200);
    other = await (await stack.admin('POST', '/admin/v1/merchants', { name: 'Outra loja' })).json();
    ({ token } = await issueTestToken(stack, { merchantId: store.id }));
  });
  afterAll(async () => stack?.stop());

  it('creates a store with defaults: 201, public shape plus the test flag', async () => {
    const res = await stack.admin('POST', '/admin/v1/merchants', { name: 'Padaria Pão Quente' });
    expect(res.status).toBe(201);
    const m = await res.json();
    expect(m).toEqual({
      id: expect.stringMatching(GUID),
      name: 'Padaria Pão Quente',
      description: '',
      document: '',
      status: 'AVAILABLE',
      contactEmails: [],
      contactPhones: [],
      address: {
        country: 'BR',
        state: '',
        city: '',
        district: '',
        street: '',
        number: '',
        postalCode: '',
        complement: null,
        latitude: 0,
        longitude: 0,
      },
      services: [
        { serviceType: 'DELIVERY', status: 'AVAILABLE', menuId: expect.stringMatching(GUID) },
        { serviceType: 'TAKEOUT', status: 'AVAILABLE', menuId: m.services[0].menuId },
      ],
      createdAt: expect.stringMatching(ISO),
      lastUpdate: m.createdAt,
      test: false,
      switchStatus: 'AVAILABLE',
      pausedUntil: null,
      pauseReason: null,
      timeZone: 'America/Sao_Paulo',
      serviceHours: null,
      confirmationTimeoutSeconds: 480,
      // written out in domain/merchant.test.ts
      serviceSwitches: expect.any(Array),
      openNow: expect.any(Array),
    });
    // a new store always answers /menus with one (empty) menu
    const { token: t } = await issueTestToken(stack, { merchantId: m.id });
    const menus = await get(`/v1/merchant/${m.id}/menus`, t);
    expect(menus.status).toBe(200);
    expect(await menus.json()).toEqual([
      { id: m.services[0].menuId, name: 'Cardápio', categories: [], items: [], optionGroups: [] },
    ]);
  });

  it('GET /v1/merchant/{id}: 200 with exactly the SPEC Merchant shape', async () => {
    const res = await get(`/v1/merchant/${store.id}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    const body = await res.json();
    expect(body).toEqual({ ...publicOf(store), lastUpdate: expect.stringMatching(ISO) });
    expect(Object.keys(body)).toEqual([
      'id',
      'name',
      'description',
      'document',
      'status',
      'contactEmails',
      'contactPhones',
      'address',
      'services',
      'createdAt',
      'lastUpdate',
    ]);
    expect(body).toMatchObject({
      name: 'Cantina Sabor Brasileiro',
      document: '12345678000190',
      contactEmails: ['contato@saborbrasileiro.com.br'],
      address: { city: 'São Paulo', complement: 'Loja 2', latitude: -23.5558, longitude: -46.6586 },
    });
    expect(body.services).toEqual([
      { serviceType: 'DELIVERY', status: 'AVAILABLE', menuId: store.services[0].menuId },
      { serviceType: 'TAKEOUT', status: 'AVAILABLE', menuId: store.services[0].menuId },
    ]);
    // the menu replacement counts as an update of the store
    expect(body.lastUpdate >= store.lastUpdate).toBe(true);
  });

  it('GET /menus: one menu; unavailable item stays; variations become the -variacoes group', async () => {
    const res = await get(`/v1/merchant/${store.id}/menus`);
    expect(res.status).toBe(200);
    const menus = await res.json();
    expect(menus).toHaveLength(1);
    const [menu] = menus;
    expect(menu.id).toBe(store.services[0].menuId);
    expect(Object.keys(menu)).toEqual(['id', 'name', 'categories', 'items', 'optionGroups']);
    expect(menu.categories.map((c: { name: string }) => c.name)).toEqual([
      'Pizzas',
      'Pratos e lanches',
      'Bebidas',
      'Sobremesas',
    ]);
    const moqueca = menu.items.find((i: { id: string }) => i.id === menuIds.unavailable);
    expect(moqueca).toMatchObject({ name: 'Moqueca de peixe', status: 'UNAVAILABLE' });
    expect(menu.categories[1].itemOfferIds).toContain(menuIds.unavailable);
    const pizza = menu.items.find((i: { id: string }) => i.id === menuIds.pizza);
    expect(pizza).toEqual({
      id: menuIds.pizza,
      name: 'Pizza Margherita',
      description: 'Molho de tomate, muçarela, tomate e manjericão',
      externalCode: 'PZ-MARG',
      status: 'AVAILABLE',
      image: 'https://images.example.com/pizza-margherita.jpg',
      price: { value: 0, originalValue: null, currency: 'BRL' },
      optionGroupIds: [menuIds.groupBorda, `${menuIds.pizza}-variacoes`],
    });
    const sizes = menu.optionGroups.find((g: { id: string }) => g.id === `${menuIds.pizza}-variacoes`);
    expect(sizes).toMatchObject({ name: 'Tamanho', minPermitted: 1, maxPermitted: 1, status: 'AVAILABLE' });
    expect(
      sizes.options.map((o: { name: string; price: { value: number } }) => [o.name, o.price.value]),
    ).toEqual([
      ['Pequena', 39.9],
      ['Média', 54.9],
      ['Grande', 69.9],
    ]);
    const feijoada = menu.items.find((i: { id: string }) => i.id === menuIds.feijoada);
    expect(feijoada.price).toEqual({ value: 49.9, originalValue: 59.9, currency: 'BRL' });
  });

  it('store isolation: another store and an unknown GUID give the same 404 ProblemDetails', async () => {
    for (const suffix of ['', '/menus']) {
      const a = await get(`/v1/merchant/${other.id}${suffix}`, token, { 'x-request-id': 'trace-1' });
      const b = await get(`/v1/merchant/${randomUUID()}${suffix}`, token, { 'x-request-id': 'trace-1' });
      expect(a.status).toBe(404);
      expect(b.status).toBe(404);
      const ta = await a.text();
      expect(ta).toBe(await b.text());
      expect(JSON.parse(ta)).toEqual({
        type: expect.any(String),
        title: 'Not Found',
        status: 404,
        traceId: 'trace-1',
      });
      const c = await get(`/v1/merchant/not-a-guid${suffix}`);
      expect(c.status).toBe(404);
      expect(await c.json()).toEqual({
        type: expect.any(String),
        title: 'Not Found',
        status: 404,
        traceId: expect.any(String),
      });
    }
  });

  it('accepts the own store id in upper case', async () => {
    const res = await get(`/v1/merchant/${store.id.toUpperCase()}/menus`);
    expect(res.status).toBe(200);
    expect((await res.json())[0].id).toBe(store.services[0].menuId);
  });

  it('documents both routes in the OpenAPI document', async () => {
    const doc = await (await stack.api('/docs/json')).json();
    expect(doc.paths['/v1/merchant/{merchantId}'].get.responses['200']).toBeDefined();
    expect(doc.paths['/v1/merchant/{merchantId}/menus'].get.responses['200']).toBeDefined();
  });

  it('the service itself refuses another store even if the gateway check were skipped', async () => {
    const nc: NatsConnection = await connect({ servers: stack.config.NATS_URL });
    try {
      // signed by the gateway for a credential of `store`, asking for `other`
      const r = await testRpc(nc, stack.config, 'gateway').callJson(
        CATALOG_OPS.getMerchant,
        { params: { merchantId: other.id } },
        {
          traceId: 't',
          principal: { kind: 'credential', merchantId: store.id, clientId: 'x', scopes: ['merchant:read'] },
        },
      );
      expect(r.status).toBe(404);
      expect((r.body as unknown as { status: number }).status).toBe(404);
    } finally {
      await nc.close();
    }
  });

  it('scopes: merchant:read for the store, catalog:read for the menu (403 insufficient_scope)', async () => {
    const { token: catalogOnly } = await issueTestToken(stack, {
      merchantId: store.id,
      scopes: ['catalog:read'],
    });
    const { token: merchantOnly } = await issueTestToken(stack, {
      merchantId: store.id,
      scopes: ['merchant:read'],
    });
    const r1 = await get(`/v1/merchant/${store.id}`, catalogOnly);
    expect(r1.status).toBe(403);
    expect((await r1.json()).error).toBe('insufficient_scope');
    const r2 = await get(`/v1/merchant/${store.id}/menus`, merchantOnly);
    expect(r2.status).toBe(403);
    expect((await r2.json()).error).toBe('insufficient_scope');
    expect((await get(`/v1/merchant/${store.id}/menus`, catalogOnly)).status).toBe(200);
    expect((await get(`/v1/merchant/${store.id}`, merchantOnly)).status).toBe(200);
    const none = await stack.api(`/v1/merchant/${store.id}`);
    expect(none.status).toBe(401);
    expect(await none.text()).toBe('');
  });

  it('admin GET keeps the test flag; PATCH edits fields and the public read follows', async () => {
    const g = await stack.admin('GET', `/admin/v1/merchants/${store.id}`);
    expect(g.status).toBe(200);
    expect((await g.json()).test).toBe(true);
    const p = await stack.admin('PATCH', `/admin/v1/merchants/${store.id}`, {
      description: 'Nova descrição',
      status: 'UNAVAILABLE',
      address: { number: '1600', complement: null },
      contactPhones: ['+5511999990000'],
    });
    expect(p.status).toBe(200);
    const patched = await p.json();
    expect(patched).toMatchObject({
      id: store.id,
      name: store.name,
      description: 'Nova descrição',
      status: 'UNAVAILABLE',
      contactPhones: ['+5511999990000'],
      address: { ...store.address, number: '1600', complement: null },
      createdAt: store.createdAt,
      test: true,
    });
    const pub = await (await get(`/v1/merchant/${store.id}`)).json();
    expect(pub).toEqual(publicOf(patched));
  });

  it('admin 404 not_found for unknown or malformed store ids', async () => {
    for (const [method, path, body] of [
      ['GET', `/admin/v1/merchants/${randomUUID()}`, undefined],
      ['GET', '/admin/v1/merchants/abc', undefined],
      ['PATCH', `/admin/v1/merchants/${randomUUID()}`, { name: 'x' }],
      ['PUT', `/admin/v1/merchants/${randomUUID()}/menu`, {}],
      ['PUT', '/admin/v1/merchants/xyz/menu', {}],
    ] as const) {
      const r = await stack.admin(method, path, body);
      expect(r.status, `${method} ${path}`).toBe(404);
      expect((await r.json()).error).toBe('not_found');
    }
  });

  it('admin 400 validation_error for bad store input, never 500', async () => {
    const bad: unknown[] = [
      {},
      { name: '' },
      { name: 'x', contactEmails: ['not-an-email'] },
      { name: 'x', status: 'OPEN' },
      { name: 'x', services: [{ serviceType: 'DELIVERY' }, { serviceType: 'DELIVERY' }] },
      { name: 'x', address: { latitude: 'south' } },
      { name: 'x', id: 'not-a-guid' },
      [1, 2],
      'text',
    ];
    for (const body of bad) {
      const r = await stack.admin('POST', '/admin/v1/merchants', body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      const b = await r.json();
      expect(b.error, JSON.stringify(body)).toBe('validation_error');
      expect(typeof b.message).toBe('string');
    }
    const p = await stack.admin('PATCH', `/admin/v1/merchants/${store.id}`, { name: 7 });
    expect(p.status).toBe(400);
    const bad2 = await fetch(`${stack.gateway.adminUrl}/admin/v1/merchants`, {
      method: 'POST',
      headers: { authorization: `Bearer ${stack.config.ADMIN_TOKEN}`, 'content-type': 'application/json' },
      body: '{"name": ',
    });
    expect(bad2.status).toBe(400);
  });

  it('an invalid admin body is answered once, by the op in catalog: its message, the fields named', async () => {
    const cases: [string, string, unknown, string, string][] = [
      ['POST', '/admin/v1/merchants', { name: '' }, 'Estabelecimento inválido.', 'name'],
      ['PATCH', `/admin/v1/merchants/${store.id}`, { status: 'OPEN' }, 'Alteração inválida.', 'status'],
      ['PUT', `/admin/v1/merchants/${other.id}/menu`, [{}, {}], 'Cardápio inválido.', '$'],
      ['PUT', `/admin/v1/merchants/${other.id}/menu`, { items: 'x' }, 'Cardápio inválido.', 'items'],
    ];
    for (const [method, path, body, message, field] of cases) {
      const r = await stack.admin(method, path, body);
      const b = await r.json();
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(b, JSON.stringify(body)).toMatchObject({ error: 'validation_error', message });
      expect(Object.keys(b.errors), JSON.stringify(b)).toContain(field);
    }
    const two = await (await stack.admin('PUT', `/admin/v1/merchants/${other.id}/menu`, [{}, {}])).json();
    expect(two.errors.$).toEqual(['O cardápio é um só: envie um menu ou um array com exatamente um menu.']);
  });

  it('admin create with a fixed id; a second create with it is 409 conflict', async () => {
    const id = randomUUID();
    const a = await stack.admin('POST', '/admin/v1/merchants', { id, name: 'Fixa' });
    expect(a.status).toBe(201);
    expect((await a.json()).id).toBe(id);
    const b = await stack.admin('POST', '/admin/v1/merchants', { id, name: 'Fixa' });
    expect(b.status).toBe(409);
    expect((await b.json()).error).toBe('conflict');
  });

  it('PUT menu: 400 with clear messages for broken references, duplicates, prices, min > max', async () => {
    const r = await stack.admin('PUT', `/admin/v1/merchants/${other.id}/menu`, {
      categories: [{ id: 'c1', name: 'C', itemOfferIds: ['i1', 'ghost'] }],
      items: [
        { id: 'i1', name: 'I', price: { value: -1 }, optionGroupIds: ['nope'] },
        { id: 'i1', name: 'I2', price: { value: 1 } },
      ],
      optionGroups: [{ id: 'g', name: 'G', minPermitted: 2, maxPermitted: 1 }],
    });
    expect(r.status).toBe(400);
    const b = await r.json();
    expect(b.error).toBe('validation_error');
    expect(b.errors).toMatchObject({ 'items[0].price.value': ['o preço deve ser maior ou igual a 0'] });
    const r2 = await stack.admin('PUT', `/admin/v1/merchants/${other.id}/menu`, {
      categories: [{ id: 'c1', name: 'C', itemOfferIds: ['i1', 'ghost'] }],
      items: [
        { id: 'i1', name: 'I', price: { value: 1 }, optionGroupIds: ['nope'] },
        { id: 'i1', name: 'I2', price: { value: 1 } },
      ],
      optionGroups: [{ id: 'g', name: 'G', minPermitted: 2, maxPermitted: 1 }],
    });
    expect(r2.status).toBe(400);
    expect((await r2.json()).errors).toEqual({
      'items[1].id': ['item com id repetido: i1'],
      'optionGroups[0].minPermitted': ['minPermitted (2) maior que maxPermitted (1)'],
      'categories[0].itemOfferIds[1]': ['item inexistente: ghost'],
      'items[0].optionGroupIds[0]': ['grupo de opções inexistente: nope'],
    });
    for (const body of [[{}, {}], [], 'x', null, { items: 'x' }, { items: [{ id: 'a', name: 'A' }] }]) {
      const x = await stack.admin('PUT', `/admin/v1/merchants/${other.id}/menu`, body);
      expect(x.status, JSON.stringify(body)).toBe(400);
      expect((await x.json()).error).toBe('validation_error');
    }
    const noBody = await fetch(`${stack.gateway.adminUrl}/admin/v1/merchants/${other.id}/menu`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${stack.config.ADMIN_TOKEN}` },
    });
    expect(noBody.status).toBe(400);
    expect((await noBody.json()).error).toBe('validation_error');
    // the menu of the store did not change
    const snap = await snapshot(other.id);
    expect(snap.body.menu?.items).toEqual([]);
  });

  it('PUT menu: a wrong shape is a 400 naming the unknown keys, and the menu is left as it was', async () => {
    const before = await (await stack.admin('GET', `/admin/v1/merchants/${other.id}`)).json();
    const r = await stack.admin('PUT', `/admin/v1/merchants/${other.id}/menu`, {
      menu: { items: [] },
      ids: {},
    });
    expect(r.status).toBe(400);
    const b = await r.json();
    expect(b.error).toBe('validation_error');
    expect(JSON.stringify(b)).toMatch(/menu/);
    const after = await (await stack.admin('GET', `/admin/v1/merchants/${other.id}`)).json();
    expect(after).toEqual(before);
  });

  it('PUT menu accepts the public form (array of one menu) and a round trip is stable', async () => {
    const { token: t } = await issueTestToken(stack, { merchantId: store.id, scopes: ['catalog:read'] });
    const served = await (await get(`/v1/merchant/${store.id}/menus`, t)).json();
    const put = await stack.admin('PUT', `/admin/v1/merchants/${store.id}/menu`, served);
    expect(put.status).toBe(200);
    expect(await put.json()).toEqual(served[0]);
    expect(await (await get(`/v1/merchant/${store.id}/menus`, t)).json()).toEqual(served);
  });

  async function snapshot(merchantId: unknown) {
    const nc = await connect({ servers: stack.config.NATS_URL });
    try {
      return await testRpc(nc, stack.config, 'orders').callJson(
        INTERNAL_OPS.merchantSnapshot,
        { body: { merchantId: merchantId as string } },
        { traceId: 't' },
      );
    } finally {
      await nc.close();
    }
  }

  it('internal.merchantSnapshot: merchant, test flag and menu; 404 for unknown', async () => {
    const s = await snapshot(store.id);
    expect(s.status).toBe(200);
    expect(s.body.test).toBe(true);
    const pub = await (await get(`/v1/merchant/${store.id}`)).json();
    expect(s.body.merchant).toEqual(pub);
    expect(s.body.menu?.items.find((i) => i.id === menuIds.pizza)?.optionGroupIds).toContain(
      `${menuIds.pizza}-variacoes`,
    );
    const o = await snapshot(other.id);
    expect(o.body.test).toBe(false);
    expect((await snapshot(randomUUID())).status).toBe(404);
    expect((await snapshot('nope')).status).toBe(404);
    // a body the op's schema refuses never reaches the handler
    expect((await snapshot(undefined)).status).toBe(400);
  });
});

describe('catalog with two replicas', () => {
  let stack: TestStack;
  afterAll(async () => stack?.stop());

  it('an edit through one replica is seen at once through every replica (cache invalidation)', async () => {
    stack = await startStack({ services: ['catalog'] });
    await stack.startService('catalog');
    const m = await (await stack.admin('POST', '/admin/v1/merchants', { name: 'v0' })).json();
    const { token } = await issueTestToken(stack, { merchantId: m.id });
    const read = async () => {
      const r = await stack.api(`/v1/merchant/${m.id}`, { headers: { authorization: `Bearer ${token}` } });
      return (await r.json()).name as string;
    };
    const menuName = async () => {
      const r = await stack.api(`/v1/merchant/${m.id}/menus`, {
        headers: { authorization: `Bearer ${token}` },
      });
      return (await r.json())[0].name as string;
    };
    for (let round = 1; round <= 2; round++) {
      // warm both replicas' caches (the queue group spreads requests between them)
      for (let i = 0; i < 12; i++) await Promise.all([read(), menuName()]);
      const p = await stack.admin('PATCH', `/admin/v1/merchants/${m.id}`, { name: `v${round}` });
      expect(p.status).toBe(200);
      const u = await stack.admin('PUT', `/admin/v1/merchants/${m.id}/menu`, { name: `menu v${round}` });
      expect(u.status).toBe(200);
      const names = await Promise.all(Array.from({ length: 12 }, read));
      expect(new Set(names)).toEqual(new Set([`v${round}`]));
      const menus = await Promise.all(Array.from({ length: 12 }, menuName));
      expect(new Set(menus)).toEqual(new Set([`menu v${round}`]));
    }
  }, 90_000);
});
