import { requestToken, startStack, type TestStack } from '@od/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createStore,
  guessUntilDelayed,
  invite,
  openStream,
  panelFetch,
  polledEventTypes,
  setPassword,
  signIn,
  signInRequest,
  storeUser,
} from '../test-helpers.ts';

/** The panel's API through real HTTP, with the real stack (PostgreSQL, Redis, NATS, every service). */
describe('panel API', () => {
  let stack: TestStack;
  let owner: Awaited<ReturnType<typeof storeUser>>;
  let other: Awaited<ReturnType<typeof storeUser>>;

  beforeAll(async () => {
    stack = await startStack({ panel: true, env: { RATE_LIMIT_ENABLED: 'false' } });
    owner = await storeUser(stack, 'OWNER');
    other = await storeUser(stack, 'OWNER');
  }, 60_000);
  afterAll(async () => stack?.stop());

  describe('invites and password setup', () => {
    it('invite answers 201 with a single-use setup token and a setup URL', async () => {
      const merchantId = await createStore(stack, 'Loja convite');
      const r = await stack.admin('POST', `/admin/v1/merchants/${merchantId}/users`, {
        email: 'Ana@Loja.test',
        role: 'STAFF',
      });
      expect(r.status).toBe(201);
      const body = await r.json();
      expect(Object.keys(body).sort()).toEqual([
        'email',
        'existingAccount',
        'role',
        'setupToken',
        'setupUrl',
        'userId',
      ]);
      expect(body).toMatchObject({ email: 'ana@loja.test', role: 'STAFF', existingAccount: false });
      expect(body.setupUrl).toContain(body.setupToken);
      expect((await setPassword(stack, body.setupToken, 'curta')).status).toBe(400);
      expect((await setPassword(stack, body.setupToken, 'uma-senha-longa')).status).toBe(204);
      expect((await setPassword(stack, body.setupToken, 'outra-senha-longa')).status).toBe(400);
      expect((await setPassword(stack, 'nao-existe', 'outra-senha-longa')).status).toBe(400);
      const list = await (await stack.admin('GET', `/admin/v1/merchants/${merchantId}/users`)).json();
      expect(list).toEqual([
        expect.objectContaining({ userId: body.userId, email: 'ana@loja.test', role: 'STAFF', active: true }),
      ]);
    });

    it('invite to an unknown store is 404, a bad role 400', async () => {
      const unknown = await stack.admin(
        'POST',
        '/admin/v1/merchants/7f1c1d58-8f0e-4a43-9d6a-2d7e2a3c7b10/users',
        {
          email: 'x@loja.test',
          role: 'OWNER',
        },
      );
      expect(unknown.status).toBe(404);
      const bad = await stack.admin('POST', `/admin/v1/merchants/${owner.merchantId}/users`, {
        email: 'x@loja.test',
        role: 'ADMIN',
      });
      expect(bad.status).toBe(400);
    });
  });

  describe('sessions', () => {
    it('sign-in sets an HttpOnly SameSite=Lax __Host- cookie and /me answers the stores', async () => {
      const r = await signInRequest(stack, owner.email, owner.password);
      expect(r.status).toBe(200);
      const cookie = r.headers.get('set-cookie') ?? '';
      expect(cookie).toMatch(/HttpOnly/);
      expect(cookie).toMatch(/SameSite=Lax/);
      expect(cookie).toMatch(/^__Host-od_panel=.*; Secure$/); // browsers accept it over http on localhost
      const me = await (
        await panelFetch(stack, '/panel/api/me', { headers: { cookie: cookie.split(';')[0] } })
      ).json();
      expect(Object.keys(me).sort()).toEqual(['csrfToken', 'email', 'stores']);
      expect(me.stores).toEqual([
        { merchantId: owner.merchantId, name: 'Loja OWNER', role: 'OWNER', test: true },
      ]);
    });

    it('every sign-in is a new session; a wrong password is 401; no cookie is 401', async () => {
      const a = await signIn(stack, owner.email, owner.password);
      expect(a.cookie).not.toBe(owner.client.cookie);
      expect((await signInRequest(stack, owner.email, 'errada-errada')).status).toBe(401);
      expect((await signInRequest(stack, 'ninguem@loja.test', 'errada-errada')).status).toBe(401);
      expect((await panelFetch(stack, '/panel/api/me')).status).toBe(401);
    });

    it('sign-in is slowed per account and network: after the free attempts even the right password waits', async () => {
      const u = await storeUser(stack, 'STAFF', { merchantId: owner.merchantId });
      const guessed = await guessUntilDelayed(stack, u.email);
      const r = await signInRequest(stack, u.email, u.password);
      // answered before the delay could end: refused (only a stall longer than 3 guesses ends it first)
      if (Date.now() < guessed.delayedUntil) expect(r.status).toBe(429);
      if (r.status === 429) expect(Number(r.headers.get('retry-after'))).toBeGreaterThan(0);
      else expect(r.status).toBe(200);
    }, 90_000);

    it('sign-out ends this session; sign-out everywhere ends them all', async () => {
      const u = await storeUser(stack, 'STAFF', { merchantId: owner.merchantId });
      const second = await signIn(stack, u.email, u.password);
      const third = await signIn(stack, u.email, u.password);
      expect((await third.call('DELETE', '/panel/api/session')).status).toBe(204);
      expect((await third.call('GET', '/panel/api/me')).status).toBe(401);
      expect((await u.client.call('GET', '/panel/api/me')).status).toBe(200);
      expect(
        (await second.call('POST', '/panel/api/sessions/sign-out-everywhere', undefined, { csrf: false }))
          .status,
      ).toBe(403);
      expect((await second.call('POST', '/panel/api/sessions/sign-out-everywhere')).status).toBe(200);
      expect((await u.client.call('GET', '/panel/api/me')).status).toBe(401);
      expect((await second.call('GET', '/panel/api/me')).status).toBe(401);
    });

    it('removing a user from its only store ends its sessions', async () => {
      const u = await storeUser(stack, 'STAFF', { merchantId: owner.merchantId });
      const del = await stack.admin('DELETE', `/admin/v1/merchants/${owner.merchantId}/users/${u.userId}`);
      expect(del.status).toBe(204);
      expect((await u.client.call('GET', '/panel/api/me')).status).toBe(401);
      expect(
        (await stack.admin('DELETE', `/admin/v1/merchants/${owner.merchantId}/users/${u.userId}`)).status,
      ).toBe(404);
    });
  });

  describe('store settings', () => {
    it("an edit is checked by catalog's op (admin form, the field named); `test` is never the panel's to set", async () => {
      const s = `/panel/api/stores/${owner.merchantId}`;
      const before = await (await stack.admin('GET', `/admin/v1/merchants/${owner.merchantId}`)).json();
      const bad = await owner.client.call('PATCH', s, { description: 'a\u0007b', pause: { minutes: 0 } });
      const badBody = await bad.json();
      expect(bad.status, JSON.stringify(badBody)).toBe(400);
      expect(badBody).toMatchObject({ error: 'validation_error', message: 'Alteração inválida.' });
      expect(Object.keys(badBody.errors)).toEqual(expect.arrayContaining(['description', 'pause.minutes']));
      expect((await owner.client.call('PATCH', s, [1])).status).toBe(400);
      const ok = await owner.client.call('PATCH', s, { description: 'Pela painel', test: !before.test });
      expect(ok.status).toBe(200);
      const after = await (await stack.admin('GET', `/admin/v1/merchants/${owner.merchantId}`)).json();
      expect(after).toMatchObject({ description: 'Pela painel', test: before.test });
    });
  });

  describe('credentials', () => {
    let created: { clientId: string; clientSecret: string; webhookSecret: string | null };

    beforeAll(async () => {
      const r = await owner.client.call('POST', `/panel/api/stores/${owner.merchantId}/credentials`, {
        name: 'PDV',
        scopes: ['orders:read', 'orders:write', 'catalog:read'],
        deliveryMode: 'POLLING',
      });
      expect(r.status).toBe(201);
      created = await r.json();
    });

    it('create without the CSRF header is 403', async () => {
      const r = await owner.client.call(
        'POST',
        `/panel/api/stores/${owner.merchantId}/credentials`,
        { name: 'x', scopes: ['orders:read'], deliveryMode: 'POLLING' },
        { csrf: false },
      );
      expect(r.status).toBe(403);
    });

    it('create answers the secrets once; the list never holds a secret', async () => {
      expect(created.clientId).toMatch(/^odc_/);
      expect(created.clientSecret.length).toBeGreaterThan(20);
      expect(created.webhookSecret).toBeNull();
      const r = await owner.client.call('GET', `/panel/api/stores/${owner.merchantId}/credentials`);
      expect(r.status).toBe(200);
      const text = await r.text();
      expect(JSON.parse(text)).toEqual([
        expect.objectContaining({ clientId: created.clientId, status: 'ACTIVE' }),
      ]);
      expect(text).not.toContain(created.clientSecret);
      expect(text).not.toMatch(/secret/i);
    });

    it("an invalid create or edit: auth's op answers, naming the fields as the page sent them", async () => {
      const at = `/panel/api/stores/${owner.merchantId}/credentials`;
      for (const [sent, field] of [
        [{ name: 'x', scopes: ['orders:delete'], deliveryMode: 'POLLING' }, 'scopes[0]'],
        [{ name: 'x', scopes: ['orders:read'], deliveryMode: 'WEBHOOK' }, 'webhookUrl'],
      ] as const) {
        const bad = await owner.client.call('POST', at, sent);
        const body = await bad.json();
        expect(bad.status, JSON.stringify(body)).toBe(400);
        expect(body).toMatchObject({ error: 'validation_error', errors: { [field]: expect.any(Array) } });
        expect(Object.keys(body.errors)).toEqual([field]);
      }
      const edit = await owner.client.call('PATCH', `${at}/${created.clientId}`, { name: '   ' });
      expect(edit.status).toBe(400);
      expect(Object.keys((await edit.json()).errors)).toEqual(['name']);
      expect((await owner.client.call('POST', at, [1])).status).toBe(400);
    });

    it('a webhook credential answers its webhook secret at creation', async () => {
      const r = await owner.client.call('POST', `/panel/api/stores/${owner.merchantId}/credentials`, {
        name: 'Hook',
        scopes: ['orders:read'],
        deliveryMode: 'WEBHOOK',
        webhookUrl: 'https://hooks.loja.test/od',
      });
      expect(r.status).toBe(201);
      expect((await r.json()).webhookSecret).toMatch(/^whsec_/);
    });

    it('pause makes the token endpoint refuse it; resume accepts it again', async () => {
      expect((await requestToken(stack, created.clientId, created.clientSecret)).status).toBe(200);
      const base = `/panel/api/stores/${owner.merchantId}/credentials/${created.clientId}`;
      const p = await owner.client.call('POST', `${base}/pause`);
      expect(p.status).toBe(200);
      expect((await p.json()).status).toBe('PAUSED');
      expect((await requestToken(stack, created.clientId, created.clientSecret)).status).toBe(401);
      expect((await owner.client.call('POST', `${base}/resume`)).status).toBe(200);
      expect((await requestToken(stack, created.clientId, created.clientSecret)).status).toBe(200);
    });

    it("another store's ids answer 404, whatever the route", async () => {
      const mine = `/panel/api/stores/${owner.merchantId}`;
      const theirs = `/panel/api/stores/${other.merchantId}`;
      expect((await other.client.call('GET', `${mine}/credentials`)).status).toBe(404);
      expect((await other.client.call('GET', mine)).status).toBe(404);
      expect((await other.client.call('GET', `${mine}/menu`)).status).toBe(404);
      expect(
        (await other.client.call('POST', `${theirs}/credentials/${created.clientId}/pause`)).status,
      ).toBe(404);
      expect(
        (await other.client.call('GET', `${theirs}/credentials/${created.clientId}/events`)).status,
      ).toBe(404);
      expect((await other.client.call('GET', '/panel/api/stores/not-a-guid/credentials')).status).toBe(404);
    });

    it('STAFF reaches the menu and the orders, never the credentials or webhooks', async () => {
      const staff = await storeUser(stack, 'STAFF', { merchantId: owner.merchantId });
      const s = `/panel/api/stores/${owner.merchantId}`;
      expect((await staff.client.call('GET', `${s}/credentials`)).status).toBe(403);
      expect((await staff.client.call('GET', `${s}/credentials/${created.clientId}/webhook`)).status).toBe(
        403,
      );
      expect((await staff.client.call('GET', `${s}/menu`)).status).toBe(200);
      expect((await staff.client.call('GET', `${s}/orders`)).status).toBe(200);
    });
  });

  describe('menu and orders', () => {
    let token: string;

    beforeAll(async () => {
      const r = await owner.client.call('POST', `/panel/api/stores/${owner.merchantId}/credentials`, {
        name: 'Integrador',
        scopes: ['orders:read', 'orders:write', 'catalog:read'],
        deliveryMode: 'POLLING',
      });
      const c = await r.json();
      token = (await (await requestToken(stack, c.clientId, c.clientSecret)).json()).access_token;
    });

    it('a menu saved in the panel is what GET /v1/merchant/{id}/menus answers; errors name the field', async () => {
      const s = `/panel/api/stores/${owner.merchantId}`;
      const menu = {
        name: 'Cardápio',
        categories: [{ id: 'pizzas', name: 'Pizzas', itemOfferIds: ['calabresa'] }],
        items: [{ id: 'calabresa', name: 'Pizza do painel', price: { value: 42.5 } }],
        optionGroups: [],
      };
      const put = await owner.client.call('PUT', `${s}/menu`, menu);
      expect(put.status).toBe(200);
      const read = await (await owner.client.call('GET', `${s}/menu`)).json();
      expect(read.menu.items[0]).toMatchObject({
        id: 'calabresa',
        name: 'Pizza do painel',
        price: { value: 42.5 },
      });
      const pub = await stack.api(`/v1/merchant/${owner.merchantId}/menus`, {
        headers: { authorization: `Bearer ${token}` },
      });
      const pubBody = await pub.json();
      expect(pub.status, JSON.stringify(pubBody)).toBe(200);
      expect(pubBody[0].items[0].name).toBe('Pizza do painel');
      const bad = await owner.client.call('PUT', `${s}/menu`, {
        ...menu,
        items: [{ ...menu.items[0], price: { value: -1 } }],
      });
      expect(bad.status).toBe(400);
      expect(Object.keys((await bad.json()).errors).join()).toMatch(/items\[0\]\.price/);
    });

    it('a test order reaches the board live; a confirm click is CONFIRMED in the integrator polling', async () => {
      const s = `/panel/api/stores/${owner.merchantId}`;
      const controller = new AbortController();
      const stream = await panelFetch(stack, `${s}/orders-stream`, {
        headers: { cookie: owner.client.cookie },
        signal: controller.signal,
      });
      expect(stream.headers.get('content-type')).toMatch(/text\/event-stream/);
      const reader = stream.body!.getReader();
      const created = await owner.client.call('POST', `${s}/test-orders`, { type: 'DELIVERY' });
      expect(created.status).toBe(201);
      const order = await created.json();
      const started = Date.now();
      let seen = '';
      while (!seen.includes(order.id)) seen += new TextDecoder().decode((await reader.read()).value);
      expect(Date.now() - started).toBeLessThan(1000);
      controller.abort();

      await expect
        .poll(
          async () =>
            (await (await owner.client.call('GET', `${s}/orders`)).json()).orders.map(
              (o: { id: string }) => o.id,
            ),
          { timeout: 5000 },
        )
        .toContain(order.id);
      const confirm = await owner.client.call('POST', `${s}/orders/${order.id}/actions/confirm`);
      expect(confirm.status, await confirm.clone().text()).toBe(202);
      await expect
        .poll(() => polledEventTypes(stack, token, order.id), { timeout: 5000 })
        .toContain('CONFIRMED');
      const detail = await (await owner.client.call('GET', `${s}/orders/${order.id}`)).json();
      expect(detail.situation).toBe('ACCEPTED');
      expect(detail.history.length).toBeGreaterThan(0);
      expect(
        (await other.client.call('GET', `/panel/api/stores/${other.merchantId}/orders/${order.id}`)).status,
      ).toBe(404);
    });

    it('the board pages order cards newest first; nextActions come from the state machine; a click names the user', async () => {
      const u = await storeUser(stack, 'STAFF', { merchantId: await createStore(stack, 'Loja quadro') });
      const s = `/panel/api/stores/${u.merchantId}`;
      const live = await openStream(stack.panel!.url, u.client.cookie, u.merchantId);
      const ids: string[] = [];
      for (const type of ['DELIVERY', 'TAKEOUT', 'DELIVERY']) {
        const r = await u.client.call('POST', `${s}/test-orders`, { type });
        expect(r.status).toBe(201);
        ids.push((await r.json()).id);
      }
      const first = await u.client.call('GET', `${s}/orders?limit=2`);
      expect(first.status).toBe(200);
      const page1 = await first.json();
      expect(Object.keys(page1).sort()).toEqual(['nextCursor', 'orders']);
      expect(page1.orders.map((o: { id: string }) => o.id)).toEqual([ids[2], ids[1]]);
      const card = page1.orders[0];
      expect(Object.keys(card).sort()).toEqual(
        [
          'confirmBy',
          'createdAt',
          'customerName',
          'displayId',
          'id',
          'itemCount',
          'lastUpdate',
          'nextActions',
          'situation',
          'total',
          'type',
        ].sort(),
      );
      expect(card).toMatchObject({
        situation: 'PENDING',
        type: 'DELIVERY',
        nextActions: ['confirm', 'requestCancellation'],
      });
      expect(typeof card.total).toBe('number');
      expect(card.itemCount).toBeGreaterThan(0);
      // the confirmation deadline of a PENDING order: the store's timeout (480 s) after intake
      expect(Date.parse(card.confirmBy) - Date.parse(card.createdAt)).toBe(480_000);
      const page2 = await (
        await u.client.call('GET', `${s}/orders?limit=2&cursor=${page1.nextCursor}`)
      ).json();
      expect(page2).toEqual({ orders: [expect.objectContaining({ id: ids[0] })], nextCursor: null });
      expect((await u.client.call('GET', `${s}/orders?limit=101`)).status).toBe(400);
      expect((await u.client.call('GET', `${s}/orders?cursor=nao-e-cursor`)).status).toBe(400);
      expect((await (await u.client.call('GET', `${s}/orders`)).json()).orders).toHaveLength(3);

      // the live stream pushes the same card shape
      await expect.poll(() => live.text().includes(ids[2]), { timeout: 5000 }).toBe(true);
      const pushed = live
        .text()
        .split('\n')
        .filter((l) => l.startsWith('data: '))
        .map((l) => JSON.parse(l.slice(6)))
        .find((e) => e.orderId === ids[2]);
      expect(Object.keys(pushed.card).sort()).toEqual(Object.keys(card).sort());
      live.abort();

      const confirm = await u.client.call('POST', `${s}/orders/${ids[2]}/actions/confirm`);
      expect(confirm.status).toBe(202);
      const detail = await (await u.client.call('GET', `${s}/orders/${ids[2]}`)).json();
      expect(detail.nextActions[0]).toBe('startPreparation');
      expect(detail.card.nextActions).toEqual(detail.nextActions);
      expect(detail.history.at(-1)).toMatchObject({
        trigger: 'confirm',
        actorKind: 'PANEL',
        actorUserId: u.userId,
        actorEmail: u.email,
      });
      // the test order the user placed names the user too
      expect(detail.history[0]).toMatchObject({
        trigger: 'create',
        actorKind: 'PANEL',
        actorUserId: u.userId,
      });
    });

    it('test orders exist only on test stores', async () => {
      const merchantId = await createStore(stack, 'Loja real', false);
      const u = await storeUser(stack, 'OWNER', { merchantId });
      expect((await u.client.call('POST', `/panel/api/stores/${merchantId}/test-orders`, {})).status).toBe(
        409,
      );
    });
  });

  it('a second invite of an existing user adds the store to its list', async () => {
    const merchantId = await createStore(stack, 'Segunda loja');
    await invite(stack, merchantId, owner.email, 'STAFF');
    const me = await (await owner.client.call('GET', '/panel/api/me')).json();
    expect(me.stores.map((s: { merchantId: string; role: string }) => [s.merchantId, s.role])).toEqual([
      [owner.merchantId, 'OWNER'],
      [merchantId, 'STAFF'],
    ]);
  });
});
