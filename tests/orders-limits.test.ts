import {
  createMerchant,
  createOrder,
  eventsOf,
  issueTestToken,
  readStream,
  startStack,
  type TestStack,
} from '@od/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * Size limits of the order write path through the real admin API (services/orders/README.md
 * "Limits"): the largest order the caps allow is stored and served whole; larger ones are refused
 * with a 4xx (never a 500), and the processes keep serving.
 */

/** The caps (the gateway's input limits): items per order, options per item, options per order. */
const CAPS = { items: 100, itemOptions: 30, orderOptions: 200, name: 200 };

/** `items` items with `options(i)` options each; every name padded to `nameLength` characters. */
function bigOrder(items: number, options: number | ((i: number) => number), nameLength = 24) {
  const pad = (s: string) => s.padEnd(nameLength, '.');
  const count = typeof options === 'number' ? () => options : options;
  return {
    type: 'DELIVERY',
    items: Array.from({ length: items }, (_, i) => ({
      name: pad(`Pizza ${i}`),
      externalCode: `PZ-${i}`,
      unitPrice: 40,
      options: Array.from({ length: count(i) }, (_, j) => ({
        name: pad(`Adicional ${j}`),
        externalCode: `AD-${j}`,
        unitPrice: 1.5,
        groupName: 'Adicionais',
      })),
    })),
  };
}

describe('orders: size limits of intake, edit and events', () => {
  let stack: TestStack;
  let merchantId: string;
  let token: string;
  const get = (id: string) =>
    stack.api(`/v1/orders/${id}`, { headers: { authorization: `Bearer ${token}` } });

  beforeAll(async () => {
    stack = await startStack({ services: ['auth', 'catalog', 'orders'] });
    ({ merchantId } = await createMerchant(stack));
    ({ token } = await issueTestToken(stack, { merchantId, scopes: ['orders:read', 'orders:write'] }));
  });
  afterAll(async () => stack?.stop());

  it('the capped maximum order (100 items, 200 options, names at 200 characters) is stored and served whole', async () => {
    // options spread as the caps allow: 30 on the first items until 200 in all
    const perItem = (i: number) =>
      Math.max(0, Math.min(CAPS.itemOptions, CAPS.orderOptions - i * CAPS.itemOptions));
    const body = bigOrder(CAPS.items, perItem, CAPS.name);
    const created = await createOrder(stack, merchantId, body);
    expect(created.items.length).toBe(CAPS.items);
    expect(created.items.reduce((n: number, it: { options: unknown[] }) => n + it.options.length, 0)).toBe(
      CAPS.orderOptions,
    );
    const res = await get(created.id);
    expect(res.status).toBe(200);
    const text = await res.text();
    const { situation: _s, channel: _c, ...publicPart } = created;
    expect(JSON.parse(text)).toEqual(publicPart);
    console.info(`capped maximum order: document of ${Buffer.byteLength(text)} bytes`);
    // an edit of that order goes through the same write path
    const edit = await stack.admin('PATCH', `/admin/v1/orders/${created.id}`, {
      items: body.items.reverse(),
    });
    expect(edit.status).toBe(200);
  });

  it('300 items x 25 options (issue 9) is a 4xx, never a 500, and the service keeps serving', async () => {
    const res = await stack.admin('POST', `/admin/v1/merchants/${merchantId}/orders`, bigOrder(300, 25));
    // 400 over the caps, 413 over a body or document size limit: whichever comes first
    expect([400, 413]).toContain(res.status);
    expect((await createOrder(stack, merchantId)).situation).toBe('PENDING');
  });

  it('a document over the size limit within the caps (long strings) is refused with a 4xx; the service keeps serving', async () => {
    const res = await stack.admin('POST', `/admin/v1/merchants/${merchantId}/orders`, bigOrder(100, 20, 250));
    // 413 from the orders service, or 400 if the gateway's string limits refuse it first
    expect([400, 413]).toContain(res.status);
    if (res.status === 413) expect((await res.json()).error).toBe('payload_too_large');
    expect((await createOrder(stack, merchantId)).situation).toBe('PENDING');
  });

  it('an event too large for the bus cannot be created (courier update with huge strings)', async () => {
    const o = await createOrder(stack, merchantId);
    const res = await stack.admin('POST', `/admin/v1/orders/${o.id}/courier`, {
      eventType: 'COURIER_ASSIGNED',
      delivery: { courier: { name: 'x'.repeat(70_000) } },
    });
    expect([400, 413]).toContain(res.status);
    const ok = await stack.admin('POST', `/admin/v1/orders/${o.id}/courier`, {
      eventType: 'COURIER_ASSIGNED',
      delivery: { courier: { name: 'Rita' } },
    });
    expect(ok.status).toBe(202);
    const events = eventsOf(await readStream(stack.config.NATS_URL, stack.prefix), o.id);
    expect(
      events.filter((e) => e.message.envelope.eventType === 'COURIER_ASSIGNED').length,
    ).toBeLessThanOrEqual(1);
  });
});

describe('orders: the admin view carries history a page at a time', () => {
  let stack: TestStack;
  let merchantId: string;
  beforeAll(async () => {
    stack = await startStack({ services: ['auth', 'catalog', 'orders'] });
    ({ merchantId } = await createMerchant(stack));
  });
  afterAll(async () => stack?.stop());

  // 231 writes one after the other, each a round trip through the gateway, the bus and PostgreSQL:
  // ~1 s on a quiet machine, 18 s with five busy processes per core; the bound only catches a hang
  it('pages of at most 200 entries, oldest first, followed by historyAfter until no cursor', async () => {
    const o = await createOrder(stack, merchantId);
    for (let i = 0; i < 230; i++) {
      const r = await stack.admin('POST', `/admin/v1/orders/${o.id}/courier`, {
        eventType: 'COURIER_ASSIGNED',
        delivery: { courier: { name: `Rita ${i}`, phone: '11999999999' } },
      });
      expect(r.status).toBe(202);
    }
    type Entry = { trigger: string; detail: { delivery?: { courier: { name: string } } } };
    type View = { id: string; history: Entry[]; historyNextCursor?: string };
    const first = (await (await stack.admin('GET', `/admin/v1/orders/${o.id}`)).json()) as View;
    expect(first.id).toBe(o.id);
    expect(first.history).toHaveLength(200);
    expect(first.history[0].trigger).toBe('create');
    expect(first.historyNextCursor).toMatch(/^\d+$/);
    const res = await stack.admin('GET', `/admin/v1/orders/${o.id}?historyAfter=${first.historyNextCursor}`);
    const second = (await res.json()) as View;
    expect(second.id).toBe(o.id);
    expect(second.history).toHaveLength(31);
    expect(second.historyNextCursor).toBeUndefined();
    // oldest first, nothing lost or repeated at the page boundary
    expect(
      [...first.history, ...second.history].slice(1).map((h) => h.detail.delivery?.courier.name),
    ).toEqual(Array.from({ length: 230 }, (_, i) => `Rita ${i}`));
    const bad = await stack.admin('GET', `/admin/v1/orders/${o.id}?historyAfter=abc`);
    expect(bad.status).toBe(400);
  }, 180_000);
});

describe('orders: extraInfo carries channel and origin markers', () => {
  let stack: TestStack;
  let merchantId: string;
  let token: string;

  beforeAll(async () => {
    stack = await startStack({ services: ['auth', 'catalog', 'orders'] });
    ({ merchantId } = await createMerchant(stack));
    ({ token } = await issueTestToken(stack, { merchantId, scopes: ['orders:read'] }));
  });
  afterAll(async () => stack?.stop());

  const extraInfoOf = async (id: string) =>
    (await (await stack.api(`/v1/orders/${id}`, { headers: { authorization: `Bearer ${token}` } })).json())
      .extraInfo;

  it('a marketplace order tells itself apart; edits keep the markers', async () => {
    const o = await createOrder(stack, merchantId, {
      type: 'DELIVERY',
      channel: 'MARKETPLACE',
      origin: 'iFood',
      extraInfo: 'Sem cebola',
    });
    expect(await extraInfoOf(o.id)).toBe('[Canal: MARKETPLACE] [Origem: iFood] Sem cebola');
    const patch = (extraInfo: string | null) =>
      stack.admin('PATCH', `/admin/v1/orders/${o.id}`, { extraInfo });
    expect((await patch('Troco para 50')).status).toBe(200);
    expect(await extraInfoOf(o.id)).toBe('[Canal: MARKETPLACE] [Origem: iFood] Troco para 50');
    expect((await patch(null)).status).toBe(200);
    expect(await extraInfoOf(o.id)).toBe('[Canal: MARKETPLACE] [Origem: iFood]');
    const app = await createOrder(stack, merchantId, { type: 'TAKEOUT', channel: 'APP' });
    expect(await extraInfoOf(app.id)).toBe('[Canal: APP] [Origem: Aplicativo]');
  });

  it('an origin that would break the markers is a 400', async () => {
    const res = await stack.admin('POST', `/admin/v1/merchants/${merchantId}/orders`, {
      type: 'DELIVERY',
      channel: 'MARKETPLACE',
      origin: 'i]Food',
    });
    expect(res.status).toBe(400);
  });
});
