import { OdAuthError, TokenManager } from '@od/client';
import {
  bearerOf,
  createMerchant,
  createOrder,
  eventually,
  poll,
  startStack,
  type TestStack,
} from '@od/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createIntegrator } from '../examples/integrator/integrator.ts';

// The SPEC integration cycle through the whole stack (every service, one gateway), driven by the
// reference integrator with a real token from POST /oauth/token.
describe('integration cycle: token, poll, fetch order, acknowledge, act', () => {
  let stack: TestStack;
  let merchantId: string;
  beforeAll(async () => {
    stack = await startStack();
    ({ merchantId } = await createMerchant(stack));
  });
  afterAll(async () => stack?.stop());

  const credential = async (body: Record<string, unknown>) => {
    const res = await stack.admin('POST', `/admin/v1/merchants/${merchantId}/credentials`, {
      name: 'pdv',
      deliveryMode: 'POLLING',
      ...body,
    });
    expect(res.status).toBe(201);
    return (await res.json()) as { clientId: string; clientSecret: string };
  };
  const tokenOf = async (c: { clientId: string; clientSecret: string }) =>
    new TokenManager({ baseUrl: stack.gateway.publicUrl, ...c }).get();

  it('drives an order to its end from the feed; a second credential sees the same events', async () => {
    const pos = await credential({ scopes: ['orders:read', 'orders:write'], includeMarketplaceOrders: true });
    const watcher = await credential({ scopes: ['orders:read'], includeMarketplaceOrders: false });
    const seen: { order: string; type: string; situation: string }[] = [];
    const next: Record<string, 'confirm' | 'dispatch' | 'delivered'> = {
      CREATED: 'confirm',
      CONFIRMED: 'dispatch',
      DISPATCHED: 'delivered',
    };
    const ac = new AbortController();
    const integrator = createIntegrator({
      baseUrl: stack.gateway.publicUrl,
      ...pos,
      limit: 50,
      idleMs: 50,
      handle: async (order, e) => {
        const o = order as { id: string };
        expect(o.id).toBe(e.orderId);
        const action = next[e.eventType];
        let situation = '-';
        if (action) {
          const r = (await integrator.client.orders[action](o.id)) as { situation: string };
          situation = r.situation;
        }
        seen.push({ order: e.orderId, type: e.eventType, situation });
        if (seen.filter((s) => s.type === 'CONCLUDED').length === 2) ac.abort();
      },
    });
    // wait until the feed knows both credentials (pushed through the KV bucket)
    await eventually(
      () => stack.admin('GET', `/admin/v1/credentials/${watcher.clientId}/events`),
      (r) => r.status === 200,
    );
    const order = await createOrder(stack, merchantId, { type: 'DELIVERY' });
    const mp = await createOrder(stack, merchantId, { type: 'DELIVERY', channel: 'MARKETPLACE' });
    const timer = setTimeout(() => ac.abort(), 20_000);
    await integrator.run(ac.signal);
    clearTimeout(timer);
    // each order (the marketplace one too: the pos includes marketplace orders) driven to its end,
    // every event handled exactly once, in order, with the action's answer
    for (const id of [order.id, mp.id])
      expect(seen.filter((s) => s.order === id).map((s) => `${s.type}:${s.situation}`)).toEqual([
        'CREATED:ACCEPTED',
        'CONFIRMED:DELIVERY',
        'DISPATCHED:DONE',
        'CONCLUDED:-',
      ]);

    // the pos acknowledged everything: its feed is empty
    expect(await poll(stack, await integrator.client.tokens.get())).toEqual([]);
    // the watcher acknowledges independently, sees the same events of the non-marketplace order, oldest first
    const wt = await tokenOf(watcher);
    const events = await eventually(
      () => poll(stack, wt),
      (v) => v.length >= 4,
    );
    expect(events.map((e) => e.orderId)).not.toContain(mp.id);
    expect(events.filter((e) => e.orderId === order.id).map((e) => e.eventType)).toEqual([
      'CREATED',
      'CONFIRMED',
      'DISPATCHED',
      'CONCLUDED',
    ]);
    for (const e of events) expect(e.orderURL).toBe(`${stack.config.PUBLIC_BASE_URL}/v1/orders/${e.orderId}`);
    // admin view of the pos: every entry acknowledged
    const adm = await (
      await stack.admin('GET', `/admin/v1/credentials/${pos.clientId}/events?limit=100`)
    ).json();
    expect(adm.pending).toBe(0);
    expect(adm.items.length).toBeGreaterThanOrEqual(8);
    expect(adm.items.every((i: { acknowledged: boolean }) => i.acknowledged)).toBe(true);
  });

  it('pause stops the integrator (invalid_token), events accumulate, resume serves them', async () => {
    const c = await credential({ scopes: ['orders:read'] });
    await eventually(
      () => stack.admin('GET', `/admin/v1/credentials/${c.clientId}/events`),
      (r) => r.status === 200,
    );
    const integrator = createIntegrator({
      baseUrl: stack.gateway.publicUrl,
      ...c,
      idleMs: 50,
      handle: async () => {},
    });
    const token = await integrator.client.tokens.get();
    expect((await stack.admin('POST', `/admin/v1/credentials/${c.clientId}/pause`)).status).toBeLessThan(300);
    const ac = new AbortController();
    const stopped = integrator.run(ac.signal).catch((e) => e);
    expect(await stopped).toBeInstanceOf(OdAuthError);
    expect(await stopped).toMatchObject({ error: 'invalid_token' });
    const blocked = await stack.api('/v1/events:polling', bearerOf(token));
    expect(blocked.status).toBe(401);
    const o1 = await createOrder(stack, merchantId, { type: 'TAKEOUT' });
    const o2 = await createOrder(stack, merchantId, { type: 'INDOOR' });
    await new Promise((r) => setTimeout(r, 500));
    expect((await stack.admin('POST', `/admin/v1/credentials/${c.clientId}/resume`)).status).toBeLessThan(
      300,
    );
    const events = await eventually(
      () => poll(stack, token),
      (v) => v.length >= 2,
    );
    expect(events.map((e) => e.orderId)).toEqual([o1.id, o2.id]);
    ac.abort();
  });
});
