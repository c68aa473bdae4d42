import { type EventHistory, encodeCursor, type OrderSummary } from '@od/contracts';
import {
  ack,
  bearerOf,
  createMerchant,
  createOrder,
  eventually,
  poll,
  requestToken,
  sleep,
  startStack,
  type TestStack,
} from '@od/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

type Summary = OrderSummary;
type HistoryEvent = EventHistory['events'][number];

// Issue 17 item 3: a point of sale that lost everything rebuilds the day through GET /v1/orders and
// GET /v1/events (extensions), paging with small limits, through the real HTTP surface.
describe('rebuild the day: GET /v1/orders and GET /v1/events', () => {
  let stack: TestStack;
  let store: string;
  let token: string;
  let marketplaceToken: string;
  let from: string;
  let between: string;
  const dayOrders: string[] = [];
  let marketplaceOrder: string;
  let laterOrder: string;
  let otherStoreOrder: string;

  const credential = async (merchantId: string, includeMarketplaceOrders: boolean) => {
    const res = await stack.admin('POST', `/admin/v1/merchants/${merchantId}/credentials`, {
      name: 'pdv',
      scopes: ['orders:read', 'orders:write'],
      deliveryMode: 'POLLING',
      includeMarketplaceOrders,
    });
    const c = (await res.json()) as { clientId: string; clientSecret: string };
    return (
      (await (await requestToken(stack, c.clientId, c.clientSecret)).json()) as { access_token: string }
    ).access_token;
  };
  const get = (path: string, t = token) => stack.api(path, bearerOf(t));
  async function pages<T>(
    path: string,
    key: 'orders' | 'events',
    t = token,
  ): Promise<{ items: T[]; pages: number }> {
    const items: T[] = [];
    let cursor: string | null = null;
    let n = 0;
    do {
      const sep = path.includes('?') ? '&' : '?';
      const res = await get(cursor ? `${path}${sep}cursor=${encodeURIComponent(cursor)}` : path, t);
      expect(res.status).toBe(200);
      const body = (await res.json()) as Record<string, unknown> & { nextCursor: string | null };
      expect(Object.keys(body).sort()).toEqual([key, 'nextCursor'].sort());
      items.push(...(body[key] as T[]));
      cursor = body.nextCursor;
      n++;
      expect(n).toBeLessThan(50);
    } while (cursor);
    return { items, pages: n };
  }

  beforeAll(async () => {
    stack = await startStack({ env: { RATE_LIMIT_ENABLED: 'false' } });
    ({ merchantId: store } = await createMerchant(stack));
    const { merchantId: other } = await createMerchant(stack, { name: 'Outra loja' });
    token = await credential(store, false);
    marketplaceToken = await credential(store, true);
    await credential(other, true);
    from = new Date(Date.now() - 1000).toISOString();
    for (const type of ['DELIVERY', 'TAKEOUT', 'DELIVERY', 'INDOOR', 'DELIVERY']) {
      dayOrders.push((await createOrder(stack, store, { type })).id);
    }
    marketplaceOrder = (await createOrder(stack, store, { type: 'DELIVERY', channel: 'MARKETPLACE' })).id;
    otherStoreOrder = (await createOrder(stack, other, { type: 'DELIVERY' })).id;
    await sleep(20);
    between = new Date().toISOString();
    await sleep(20);
    laterOrder = (await createOrder(stack, store, { type: 'DELIVERY' })).id;
  });
  afterAll(async () => stack?.stop());

  it('pages through the day: every order once, newest first, only this store, marketplace by the flag', async () => {
    for (const id of dayOrders.slice(0, 2)) {
      const r = await stack.api(`/v1/orders/${id}/confirm`, { method: 'POST', ...bearerOf(token) });
      expect(r.status).toBe(202);
    }
    const to = new Date(Date.now() + 60_000).toISOString();
    const { items, pages: n } = await pages<Summary>(
      `/v1/orders?createdFrom=${from}&createdTo=${encodeURIComponent(to)}&limit=2`,
      'orders',
    );
    const ids = items.map((o) => o.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(new Set(ids)).toEqual(new Set([...dayOrders, laterOrder]));
    expect(n).toBe(3);
    expect(ids).not.toContain(otherStoreOrder);
    expect(ids).not.toContain(marketplaceOrder);
    const times = items.map((o) => o.createdAt);
    expect([...times].sort().reverse()).toEqual(times);
    expect(ids[0]).toBe(laterOrder);
    const confirmed = items.find((o) => o.id === dayOrders[0]);
    expect(confirmed).toMatchObject({ situation: 'ACCEPTED', type: 'DELIVERY' });
    expect(Object.keys(confirmed ?? {}).sort()).toEqual(
      ['createdAt', 'displayId', 'id', 'lastUpdate', 'situation', 'total', 'type'].sort(),
    );
    expect(confirmed?.total.orderAmount.currency).toBe('BRL');
    expect(Date.parse(confirmed?.lastUpdate ?? '')).toBeGreaterThan(Date.parse(confirmed?.createdAt ?? ''));

    // the range is [createdFrom, createdTo): the order created after `between` is left out
    const early = await pages<Summary>(
      `/v1/orders?createdFrom=${from}&createdTo=${between}&limit=4`,
      'orders',
    );
    expect(new Set(early.items.map((o) => o.id))).toEqual(new Set(dayOrders));
    // situation filter
    const accepted = await pages<Summary>(
      `/v1/orders?createdFrom=${from}&createdTo=${encodeURIComponent(to)}&situation=ACCEPTED`,
      'orders',
    );
    expect(accepted.items.map((o) => o.id).sort()).toEqual(dayOrders.slice(0, 2).sort());
    // a credential that includes marketplace orders sees that one too
    const all = await pages<Summary>(
      `/v1/orders?createdFrom=${from}&createdTo=${encodeURIComponent(to)}`,
      'orders',
      marketplaceToken,
    );
    expect(all.items.map((o) => o.id)).toContain(marketplaceOrder);
    expect(all.items.map((o) => o.id)).not.toContain(otherStoreOrder);
  });

  it('re-reads the events, acknowledged or not, with their ack time; never acknowledges anything', async () => {
    // CREATED x6 + CONFIRMED x2 (first test) reach the feed
    const pending = await eventually(
      () => poll(stack, token, '?limit=200'),
      (p) => p.length >= 8,
    );
    expect(pending.length).toBe(8);
    const acked = pending.slice(0, 3).map((e) => e.eventId);
    expect((await ack(stack, token, acked)).status).toBe(202);

    const to = new Date(Date.now() + 60_000).toISOString();
    const { items } = await pages<HistoryEvent>(
      `/v1/events?createdFrom=${from}&createdTo=${encodeURIComponent(to)}&limit=3`,
      'events',
    );
    const ids = items.map((e) => e.eventId);
    expect(new Set(ids).size).toBe(ids.length);
    expect(new Set(ids)).toEqual(new Set(pending.map((e) => e.eventId)));
    const times = items.map((e) => e.createdAt);
    expect([...times].sort()).toEqual(times);
    for (const e of items) {
      if (acked.includes(e.eventId)) expect(Date.parse(e.acknowledgedAt ?? '')).toBeGreaterThan(0);
      else expect(e.acknowledgedAt).toBeNull();
    }
    expect(items.map((e) => e.orderId)).not.toContain(otherStoreOrder);
    // the envelope is the polled one, plus acknowledgedAt
    const first = pending[4];
    expect(items.find((e) => e.eventId === first.eventId)).toEqual({ ...first, acknowledgedAt: null });
    // reading history changed nothing: the same events are still pending
    const after = await poll(stack, token, '?limit=200');
    expect(after.map((e) => e.eventId)).toEqual(pending.slice(3).map((e) => e.eventId));
  });

  it('serves OPEN_DELIVERY credentials too (errors in the standard form)', async () => {
    const res = await stack.admin('POST', `/admin/v1/merchants/${store}/credentials`, {
      name: 'od',
      scopes: ['orders:read'],
      deliveryMode: 'POLLING',
      apiProfile: 'OPEN_DELIVERY',
    });
    const c = (await res.json()) as { clientId: string; clientSecret: string };
    const od = (
      (await (await requestToken(stack, c.clientId, c.clientSecret)).json()) as { access_token: string }
    ).access_token;
    const to = encodeURIComponent(new Date(Date.now() + 60_000).toISOString());
    const { items } = await pages<Summary>(`/v1/orders?createdFrom=${from}&createdTo=${to}`, 'orders', od);
    expect(new Set(items.map((o) => o.id))).toEqual(new Set([...dayOrders, laterOrder]));
    const bad = await get('/v1/orders?limit=0', od);
    expect(bad.status).toBe(400);
    expect(bad.headers.get('content-type')).toContain('application/problem+json');
  });

  it('answers 400 ValidationProblemDetails on a bad cursor, range or limit', async () => {
    const cursor = encodeCursor({ at: new Date().toISOString(), id: dayOrders[0] });
    const tampered = `${cursor.slice(0, -2)}${cursor.endsWith('A') ? 'B' : 'A'}x`;
    const now = Date.now();
    const iso = (ms: number) => encodeURIComponent(new Date(ms).toISOString());
    const bad: [string, string][] = [
      [`/v1/orders?cursor=${tampered}`, 'cursor'],
      [`/v1/events?cursor=${tampered}`, 'cursor'],
      ['/v1/orders?cursor=not-a-cursor!', 'cursor'],
      [`/v1/orders?cursor=${Buffer.from('v1|yesterday|x').toString('base64url')}`, 'cursor'],
      [`/v1/orders?createdFrom=${iso(now)}&createdTo=${iso(now - 1000)}`, 'createdFrom'],
      [`/v1/orders?createdFrom=${iso(now - 40 * 86_400_000)}&createdTo=${iso(now)}`, 'createdFrom'],
      [
        `/v1/events?createdFrom=${iso(now - 31 * 86_400_000)}&createdTo=${iso(now - 30.5 * 86_400_000)}`,
        'createdFrom',
      ],
      ['/v1/orders?createdFrom=2026-11-24', 'createdFrom'],
      ['/v1/orders?limit=101', 'limit'],
      ['/v1/events?limit=0', 'limit'],
      ['/v1/orders?situation=PENDING_PAYMENT', 'situation'],
    ];
    for (const [path, field] of bad) {
      const res = await get(path);
      expect(res.status, path).toBe(400);
      const body = (await res.json()) as {
        status: number;
        errors: Record<string, string[]>;
        traceId: string;
      };
      expect(body.status, path).toBe(400);
      expect(Object.keys(body.errors), path).toContain(field);
    }
    // a well-formed cursor of this server is accepted
    expect((await get(`/v1/orders?cursor=${cursor}`)).status).toBe(200);
  });
});
