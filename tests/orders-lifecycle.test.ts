import { randomUUID } from 'node:crypto';
import { ORDER_ACTIONS, type OrderAction, type OrderType, type Situation } from '@od/contracts';
import {
  createMerchant,
  createOrder,
  eventsOf,
  issueTestToken,
  type StreamEvent,
  startStack,
  type TestStack,
  waitForStream,
} from '@od/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * Every row of SPEC's transition table and every rule under it, through HTTP, for DELIVERY,
 * TAKEOUT and INDOOR orders; events read back from JetStream.
 */

const RANK: Record<string, number> = {
  PENDING: 0,
  ACCEPTED: 1,
  PREPARING: 2,
  READY: 3,
  DELIVERY: 4,
  DONE: 5,
};
const TARGET: Record<string, Situation> = {
  confirm: 'ACCEPTED',
  startPreparation: 'PREPARING',
  readyForPickup: 'READY',
  dispatch: 'DELIVERY',
  delivered: 'DONE',
  pickedUp: 'DONE',
  requestCancellation: 'CANCELLED',
};
/** How an order is brought into each situation (public actions). */
const PATH: Record<string, OrderAction[]> = {
  PENDING: [],
  ACCEPTED: ['confirm'],
  PREPARING: ['confirm', 'startPreparation'],
  READY: ['confirm', 'readyForPickup'],
  DELIVERY: ['confirm', 'dispatch'],
  DONE: ['confirm', 'delivered'],
  CANCELLED: ['requestCancellation'],
};

interface Expectation {
  status: 202 | 422;
  body?: { status: 'accepted' | 'already_applied'; situation: Situation };
  /** event emitted by the action, null when none */
  event: string | null;
}

/** SPEC's table + rules + DESIGN decisions, written independently of the implementation. */
function expected(type: OrderType, from: Situation, action: OrderAction): Expectation {
  const invalid: Expectation = { status: 422, event: null };
  const same: Expectation = {
    status: 202,
    body: { status: 'already_applied', situation: from },
    event: null,
  };
  if (from === 'CANCELLED') return action === 'requestCancellation' ? same : invalid; // rule 3
  if (from === 'DONE') return action === 'delivered' || action === 'pickedUp' ? same : invalid; // rule 4
  if (action === 'dispatch' && type === 'INDOOR') return invalid; // rule 2
  if (action === 'requestCancellation')
    return { status: 202, body: { status: 'accepted', situation: 'CANCELLED' }, event: 'CANCELLED' }; // rule 6
  const to = TARGET[action];
  if (from === 'PENDING')
    return action === 'confirm'
      ? { status: 202, body: { status: 'accepted', situation: 'ACCEPTED' }, event: 'CONFIRMED' }
      : invalid;
  if (to === from) return same; // rule 1
  const accepted = { status: 202 as const, body: { status: 'accepted' as const, situation: to } };
  if (RANK[to] < RANK[from]) return { ...accepted, event: null }; // backtracking, rule 7
  const event =
    to === 'ACCEPTED'
      ? 'CONFIRMED'
      : to === 'PREPARING'
        ? 'PREPARING'
        : to === 'READY'
          ? 'READY_FOR_PICKUP'
          : to === 'DELIVERY'
            ? type === 'TAKEOUT'
              ? 'READY_FOR_PICKUP'
              : 'DISPATCHED'
            : 'CONCLUDED';
  return { ...accepted, event };
}

const pathEvents = (type: OrderType, from: Situation): string[] => {
  const out: string[] = [];
  let s: Situation = 'PENDING';
  for (const a of PATH[from]) {
    const e = expected(type, s, a);
    if (e.event) out.push(e.event);
    s = e.body?.situation ?? s;
  }
  return out;
};

describe('orders: lifecycle actions through HTTP', () => {
  let stack: TestStack;
  let merchantId: string;
  let token: string;
  let clientId: string;
  const post = (id: string, action: string, init: RequestInit = {}) =>
    stack.api(`/v1/orders/${id}/${action}`, {
      method: 'POST',
      ...init,
      headers: { authorization: `Bearer ${token}`, ...(init.headers as Record<string, string>) },
    });
  const stream = (until: (e: StreamEvent[]) => boolean) =>
    waitForStream(stack.config.NATS_URL, stack.prefix, until, 30_000);

  beforeAll(async () => {
    stack = await startStack({ services: ['catalog', 'orders'] });
    ({ merchantId } = await createMerchant(stack));
    ({ token, clientId } = await issueTestToken(stack, {
      merchantId,
      scopes: ['orders:read', 'orders:write'],
    }));
  });
  afterAll(async () => stack?.stop());

  it('every row of the transition table, for DELIVERY, TAKEOUT and INDOOR orders, with its events', async () => {
    const rows: { type: OrderType; from: Situation; action: OrderAction }[] = [];
    for (const type of ['DELIVERY', 'TAKEOUT', 'INDOOR'] as const)
      for (const from of Object.keys(PATH) as Situation[])
        for (const action of ORDER_ACTIONS)
          if (!(type === 'INDOOR' && from === 'DELIVERY')) rows.push({ type, from, action });
    const expectedEvents = new Map<string, string[]>();
    const typeOf = new Map<string, OrderType>();
    const failures: string[] = [];
    const runRow = async (row: (typeof rows)[number]) => {
      const o = await createOrder(stack, merchantId, { type: row.type });
      typeOf.set(o.id, row.type);
      for (const a of PATH[row.from]) {
        const r = await post(o.id, a);
        if (r.status !== 202) failures.push(`${row.type} path ${a}: ${r.status}`);
      }
      const want = expected(row.type, row.from, row.action);
      const res = await post(o.id, row.action);
      const body = await res.json();
      const label = `${row.type} ${row.from} --${row.action}-->`;
      if (res.status !== want.status) failures.push(`${label} status ${res.status} != ${want.status}`);
      if (want.status === 202 && JSON.stringify(body) !== JSON.stringify(want.body))
        failures.push(`${label} body ${JSON.stringify(body)} != ${JSON.stringify(want.body)}`);
      if (want.status === 422 && (body.error !== 'invalid_transition' || typeof body.message !== 'string'))
        failures.push(`${label} 422 body ${JSON.stringify(body)}`);
      // the order is really in the answered situation: GET still works, admin view agrees
      const view = await (await stack.admin('GET', `/admin/v1/orders/${o.id}`)).json();
      const situation = want.body?.situation ?? row.from;
      if (view.situation !== situation) failures.push(`${label} situation ${view.situation} != ${situation}`);
      expectedEvents.set(o.id, [
        'CREATED',
        ...pathEvents(row.type, row.from),
        ...(want.event ? [want.event] : []),
      ]);
    };
    for (let i = 0; i < rows.length; i += 8) await Promise.all(rows.slice(i, i + 8).map(runRow));
    expect(failures).toEqual([]);
    expect(rows.length).toBe(3 * 7 * 7 - 7);

    const total = [...expectedEvents.values()].reduce((s, e) => s + e.length, 0);
    const events = await stream((e) => e.length >= total);
    expect(events.length).toBe(total);
    expect(new Set(events.map((e) => e.msgId)).size).toBe(total);
    for (const [orderId, types] of expectedEvents) {
      const mine = eventsOf(events, orderId);
      expect(
        mine.map((e) => e.message.envelope.eventType),
        orderId,
      ).toEqual(types);
      expect(mine.map((e) => e.message.orderSeq)).toEqual(types.map((_, i) => i + 1));
      for (const e of mine) {
        const env = e.message.envelope;
        expect(e.msgId).toBe(env.eventId);
        expect(e.subject).toBe(`${stack.prefix}.events.order.${merchantId}`);
        expect(env.orderURL).toBe(`https://api.test.local/v1/orders/${orderId}`);
        if (env.eventType === 'CREATED') expect(env).not.toHaveProperty('sourceAppId');
        else expect(env.sourceAppId).toBe(clientId);
        if (env.eventType === 'CONFIRMED') expect(env.metadata).toEqual({});
        else if (env.eventType === 'CANCELLED')
          expect(env.metadata).toEqual({ reason: expect.any(String), code: 'OTHER_CANCELLATION_REASON' });
        else expect(env).not.toHaveProperty('metadata');
        expect(Object.keys(env).every((k) => (env as Record<string, unknown>)[k] !== null)).toBe(true);
      }
    }
    // rule 2: DISPATCHED never occurs for TAKEOUT or INDOOR
    const dispatchedTypes = new Set(
      events
        .filter((e) => e.message.envelope.eventType === 'DISPATCHED')
        .map((e) => typeOf.get(e.message.envelope.orderId)),
    );
    expect([...dispatchedTypes]).toEqual(['DELIVERY']);
  }, 180_000);

  it('an unpaid order does not exist for actions (404); panel actions on it are 422', async () => {
    const o = await createOrder(stack, merchantId, { type: 'DELIVERY', paymentPending: true });
    for (const a of ORDER_ACTIONS) {
      const r = await post(o.id, a);
      expect(r.status).toBe(404);
      expect((await r.json()).error).toBe('order_not_found');
      const p = await stack.admin('POST', `/admin/v1/orders/${o.id}/${a}`);
      expect(p.status).toBe(422);
    }
  });

  it('every action answers 404 for unknown, foreign-store orders and non-GUID ids, 403 without orders:write', async () => {
    const o = await createOrder(stack, merchantId);
    const other = await issueTestToken(stack, { merchantId: randomUUID(), scopes: ['orders:write'] });
    const reader = await issueTestToken(stack, { merchantId, scopes: ['orders:read'] });
    for (const a of ORDER_ACTIONS) {
      const unknown = await post(randomUUID(), a);
      expect(unknown.status).toBe(404);
      expect(await unknown.json()).toEqual({ error: 'order_not_found', message: expect.any(String) });
      const foreign = await post(o.id, a, { headers: { authorization: `Bearer ${other.token}` } });
      expect(foreign.status).toBe(404);
      expect((await foreign.json()).error).toBe('order_not_found');
      const bad = await post('not-a-guid', a);
      expect(bad.status).toBe(404);
      expect(await bad.json()).toMatchObject({ title: 'Not Found', status: 404 });
      const scope = await post(o.id, a, { headers: { authorization: `Bearer ${reader.token}` } });
      expect(scope.status).toBe(403);
      expect((await scope.json()).error).toBe('insufficient_scope');
      expect((await stack.api(`/v1/orders/${o.id}/${a}`, { method: 'POST' })).status).toBe(401);
    }
    // nothing happened to the order
    expect((await (await stack.admin('GET', `/admin/v1/orders/${o.id}`)).json()).situation).toBe('PENDING');
  });

  it('requestCancellation: reason recorded, default pt-BR reason, 400 over 500 characters with the order untouched', async () => {
    const json = (b: unknown) => ({
      body: JSON.stringify(b),
      headers: { 'content-type': 'application/json' },
    });
    const a = await createOrder(stack, merchantId);
    const long = await post(a.id, 'requestCancellation', json({ reason: 'x'.repeat(501) }));
    expect(long.status).toBe(400);
    expect(await long.json()).toEqual({ error: 'invalid_cancellation_reason', message: expect.any(String) });
    expect((await (await stack.admin('GET', `/admin/v1/orders/${a.id}`)).json()).situation).toBe('PENDING');
    const ok500 = await post(
      a.id,
      'requestCancellation',
      json({ reason: 'y'.repeat(500), code: 'WHATEVER' }),
    );
    expect(ok500.status).toBe(202);
    expect(await ok500.json()).toEqual({ status: 'accepted', situation: 'CANCELLED' });
    const again = await post(a.id, 'requestCancellation', json({ reason: 'z'.repeat(600) }));
    expect(again.status).toBe(400);
    const again2 = await post(a.id, 'requestCancellation');
    expect(await again2.json()).toEqual({ status: 'already_applied', situation: 'CANCELLED' });

    const b = await createOrder(stack, merchantId);
    expect((await post(b.id, 'requestCancellation')).status).toBe(202);
    const c = await createOrder(stack, merchantId);
    expect((await post(c.id, 'requestCancellation', json({}))).status).toBe(202);
    const d = await createOrder(stack, merchantId);
    const garbage = await post(d.id, 'requestCancellation', {
      body: '{nope',
      headers: { 'content-type': 'application/json' },
    });
    expect(garbage.status).toBe(400);
    const events = await stream(
      (e) => [a, b, c].every((o) => eventsOf(e, o.id).length === 2) && eventsOf(e, d.id).length >= 1,
    );
    const cancelOf = (id: string) =>
      eventsOf(events, id).find((e) => e.message.envelope.eventType === 'CANCELLED')?.message.envelope;
    expect(cancelOf(a.id)?.metadata).toEqual({ reason: 'y'.repeat(500), code: 'OTHER_CANCELLATION_REASON' });
    expect(cancelOf(b.id)?.metadata).toEqual({
      reason: 'Pedido cancelado pelo estabelecimento.',
      code: 'OTHER_CANCELLATION_REASON',
    });
    expect(cancelOf(c.id)?.metadata?.reason).toBe('Pedido cancelado pelo estabelecimento.');
    expect(eventsOf(events, d.id).length).toBe(1);
  });

  it('actions go through Idempotency-Key: the first answer is replayed, another request is 409', async () => {
    const o = await createOrder(stack, merchantId);
    const key = { 'idempotency-key': randomUUID() };
    const r1 = await post(o.id, 'confirm', { headers: key });
    expect(await r1.json()).toEqual({ status: 'accepted', situation: 'ACCEPTED' });
    const r2 = await post(o.id, 'confirm', { headers: key });
    expect(r2.status).toBe(202);
    expect(await r2.json()).toEqual({ status: 'accepted', situation: 'ACCEPTED' }); // replayed, not re-executed
    const r3 = await post(o.id, 'startPreparation', { headers: key });
    expect(r3.status).toBe(409);
    expect((await r3.json()).error).toBe('idempotency_key_reuse');
    const cancelKey = { 'idempotency-key': randomUUID(), 'content-type': 'application/json' };
    const c1 = await post(o.id, 'requestCancellation', {
      headers: cancelKey,
      body: JSON.stringify({ reason: 'a', code: 'X' }),
    });
    expect(c1.status).toBe(202);
    // same body with keys in another order: same request
    const c2 = await post(o.id, 'requestCancellation', {
      headers: cancelKey,
      body: JSON.stringify({ code: 'X', reason: 'a' }),
    });
    expect(await c2.json()).toEqual({ status: 'accepted', situation: 'CANCELLED' });
    const c3 = await post(o.id, 'requestCancellation', {
      headers: cancelKey,
      body: JSON.stringify({ reason: 'b' }),
    });
    expect(c3.status).toBe(409);
    const long = await post(o.id, 'confirm', { headers: { 'idempotency-key': 'k'.repeat(129) } });
    expect(long.status).toBe(400);
    expect((await long.json()).error).toBe('invalid_idempotency_key');
    const events = await stream((e) => eventsOf(e, o.id).length >= 3);
    expect(eventsOf(events, o.id).map((e) => e.message.envelope.eventType)).toEqual([
      'CREATED',
      'CONFIRMED',
      'CANCELLED',
    ]);
  });

  it('other actions ignore any body', async () => {
    const o = await createOrder(stack, merchantId);
    const r1 = await post(o.id, 'confirm', {
      body: '{not json',
      headers: { 'content-type': 'application/json' },
    });
    expect(r1.status).toBe(202);
    const r2 = await post(o.id, 'startPreparation', {
      body: 'hello',
      headers: { 'content-type': 'text/plain' },
    });
    expect(await r2.json()).toEqual({ status: 'accepted', situation: 'PREPARING' });
    const r3 = await post(o.id, 'readyForPickup', {
      body: JSON.stringify({ reason: 'x'.repeat(900) }),
      headers: { 'content-type': 'application/json' },
    });
    expect(await r3.json()).toEqual({ status: 'accepted', situation: 'READY' });
  });

  it('backtracking emits no event and reverts only the state; the order stays readable', async () => {
    const o = await createOrder(stack, merchantId);
    await post(o.id, 'confirm');
    await post(o.id, 'readyForPickup');
    expect(await (await post(o.id, 'confirm')).json()).toEqual({ status: 'accepted', situation: 'ACCEPTED' });
    expect(await (await post(o.id, 'startPreparation')).json()).toEqual({
      status: 'accepted',
      situation: 'PREPARING',
    });
    expect(await (await post(o.id, 'delivered')).json()).toEqual({ status: 'accepted', situation: 'DONE' });
    const view = await (await stack.admin('GET', `/admin/v1/orders/${o.id}`)).json();
    expect(
      view.history.map((h: { trigger: string; eventType: string | null }) => [h.trigger, h.eventType]),
    ).toEqual([
      ['create', 'CREATED'],
      ['confirm', 'CONFIRMED'],
      ['readyForPickup', 'READY_FOR_PICKUP'],
      ['confirm', null],
      ['startPreparation', 'PREPARING'],
      ['delivered', 'CONCLUDED'],
    ]);
    expect(view.history[1]).toMatchObject({
      actorKind: 'CREDENTIAL',
      actorClientId: clientId,
      from: 'PENDING',
      to: 'ACCEPTED',
    });
    const events = await stream((e) => eventsOf(e, o.id).length >= 5);
    expect(eventsOf(events, o.id).map((e) => e.message.envelope.eventType)).toEqual([
      'CREATED',
      'CONFIRMED',
      'READY_FOR_PICKUP',
      'PREPARING',
      'CONCLUDED',
    ]);
    expect(
      (await stack.api(`/v1/orders/${o.id}`, { headers: { authorization: `Bearer ${token}` } })).status,
    ).toBe(200);
  });
});

describe('orders: panel, customer, edits and courier tracking (admin API)', () => {
  let stack: TestStack;
  let merchantId: string;
  let menu: Awaited<ReturnType<typeof createMerchant>>['menu'];
  let token: string;
  const stream = (until: (e: StreamEvent[]) => boolean) =>
    waitForStream(stack.config.NATS_URL, stack.prefix, until, 30_000);

  beforeAll(async () => {
    stack = await startStack({ services: ['catalog', 'orders'] });
    ({ merchantId, menu } = await createMerchant(stack));
    ({ token } = await issueTestToken(stack, { merchantId, scopes: ['orders:read'] }));
  });
  afterAll(async () => stack?.stop());

  it('panel clicks follow the same rules with actor PANEL (no sourceAppId)', async () => {
    const o = await createOrder(stack, merchantId, { type: 'INDOOR' });
    const click = (a: string) => stack.admin('POST', `/admin/v1/orders/${o.id}/${a}`);
    expect(await (await click('confirm')).json()).toEqual({ status: 'accepted', situation: 'ACCEPTED' });
    const d = await click('dispatch');
    expect(d.status).toBe(422);
    expect((await d.json()).error).toBe('invalid_transition');
    expect(await (await click('pickedUp')).json()).toEqual({ status: 'accepted', situation: 'DONE' });
    expect(await (await click('pickedUp')).json()).toEqual({ status: 'already_applied', situation: 'DONE' });
    expect((await click('requestCancellation')).status).toBe(422);
    expect((await stack.admin('POST', `/admin/v1/orders/${randomUUID()}/confirm`)).status).toBe(404);
    const events = await stream((e) => eventsOf(e, o.id).length >= 3);
    const mine = eventsOf(events, o.id).map((e) => e.message.envelope);
    expect(mine.map((e) => e.eventType)).toEqual(['CREATED', 'CONFIRMED', 'CONCLUDED']);
    expect(mine.every((e) => !('sourceAppId' in e))).toBe(true);
    const view = await (await stack.admin('GET', `/admin/v1/orders/${o.id}`)).json();
    expect(view.history[1].actorKind).toBe('PANEL');
  });

  it('customer and merchant cancellation from any state but CANCELLED, DONE included', async () => {
    const o = await createOrder(stack, merchantId);
    await stack.admin('POST', `/admin/v1/orders/${o.id}/confirm`);
    await stack.admin('POST', `/admin/v1/orders/${o.id}/dispatch`);
    const c = await stack.admin('POST', `/admin/v1/orders/${o.id}/cancel`, {
      by: 'CUSTOMER',
      reason: 'Demorou demais',
    });
    expect(await c.json()).toEqual({ status: 'accepted', situation: 'CANCELLED' });
    const c2 = await stack.admin('POST', `/admin/v1/orders/${o.id}/cancel`, { by: 'MERCHANT' });
    expect(await c2.json()).toEqual({ status: 'already_applied', situation: 'CANCELLED' });
    const m = await createOrder(stack, merchantId);
    expect((await stack.admin('POST', `/admin/v1/orders/${m.id}/cancel`, { by: 'MERCHANT' })).status).toBe(
      202,
    );
    const done = await createOrder(stack, merchantId);
    await stack.admin('POST', `/admin/v1/orders/${done.id}/confirm`);
    await stack.admin('POST', `/admin/v1/orders/${done.id}/delivered`);
    expect((await stack.admin('POST', `/admin/v1/orders/${done.id}/cancel`, { by: 'NOBODY' })).status).toBe(
      400,
    );
    // SPEC's table: the panel or the customer cancels from any state (a refund after delivery)
    const yes = await stack.admin('POST', `/admin/v1/orders/${done.id}/cancel`, {
      by: 'CUSTOMER',
      reason: 'Pedido veio errado',
    });
    expect(yes.status).toBe(202);
    expect(await yes.json()).toEqual({ status: 'accepted', situation: 'CANCELLED' });
    const again = await stack.admin('POST', `/admin/v1/orders/${done.id}/cancel`, { by: 'MERCHANT' });
    expect(await again.json()).toEqual({ status: 'already_applied', situation: 'CANCELLED' });
    const events = await stream(
      (e) =>
        eventsOf(e, o.id).length >= 4 && eventsOf(e, m.id).length >= 2 && eventsOf(e, done.id).length >= 4,
    );
    expect(eventsOf(events, done.id).map((e) => e.message.envelope.eventType)).toEqual([
      'CREATED',
      'CONFIRMED',
      'CONCLUDED',
      'CANCELLED',
    ]);
    expect(eventsOf(events, done.id).at(-1)?.message.envelope.metadata).toEqual({
      reason: 'Pedido veio errado',
      code: 'CONSUMER_CANCELLATION_REQUESTED',
    });
    expect(eventsOf(events, o.id).at(-1)?.message.envelope.metadata).toEqual({
      reason: 'Demorou demais',
      code: 'CONSUMER_CANCELLATION_REQUESTED',
    });
    expect(eventsOf(events, m.id).at(-1)?.message.envelope.metadata).toEqual({
      reason: expect.any(String),
      code: 'OTHER_CANCELLATION_REASON',
    });
  });

  it('PATCH edits the content, re-renders the order and emits MODIFIED', async () => {
    const o = await createOrder(stack, merchantId);
    const res = await stack.admin('PATCH', `/admin/v1/orders/${o.id}`, {
      items: [{ itemId: menu.burger, quantity: 3 }],
      extraInfo: 'Sem cebola',
    });
    expect(res.status).toBe(200);
    const edited = await res.json();
    expect(edited.total.orderAmount).toEqual({ value: 95, currency: 'BRL' });
    expect(edited.payments).toMatchObject({ pending: 95, methods: [{ value: 95 }] });
    const got = await (
      await stack.api(`/v1/orders/${o.id}`, { headers: { authorization: `Bearer ${token}` } })
    ).json();
    expect(got.items[0].quantity).toBe(3);
    expect(got.extraInfo).toBe('[Canal: DIGITAL_MENU] [Origem: Cardápio digital] Sem cebola');
    expect(got.createdAt).toBe(o.createdAt);
    const bad = await stack.admin('PATCH', `/admin/v1/orders/${o.id}`, {
      payments: { methods: [{ value: 1, method: 'CASH', type: 'OFFLINE' }] },
    });
    expect(bad.status).toBe(400);
    expect((await stack.admin('PATCH', `/admin/v1/orders/${o.id}`, {})).status).toBe(400);
    const events = await stream((e) => eventsOf(e, o.id).length >= 2);
    expect(eventsOf(events, o.id).map((e) => e.message.envelope.eventType)).toEqual(['CREATED', 'MODIFIED']);
    expect(eventsOf(events, o.id)[1].message.envelope).not.toHaveProperty('metadata');
    await stack.admin('POST', `/admin/v1/orders/${o.id}/requestCancellation`);
    expect((await stack.admin('PATCH', `/admin/v1/orders/${o.id}`, { extraInfo: 'x' })).status).toBe(422);
  });

  it('courier tracking emits the COURIER_* event with a delivery block', async () => {
    const o = await createOrder(stack, merchantId);
    const res = await stack.admin('POST', `/admin/v1/orders/${o.id}/courier`, {
      eventType: 'COURIER_ASSIGNED',
      delivery: {
        courier: {
          name: 'João',
          phone: '11977776666',
          vehicle: { type: 'MOTORCYCLE', licensePlate: 'ABC1D23' },
        },
        route: { id: 'r-1', stopIndex: 0, totalStops: 2 },
        stop: { status: 'PENDING' },
      },
    });
    expect(res.status).toBe(202);
    const { eventId } = await res.json();
    const events = await stream((e) => eventsOf(e, o.id).length >= 2);
    const ev = eventsOf(events, o.id)[1].message.envelope;
    expect(ev).toEqual({
      eventId,
      eventType: 'COURIER_ASSIGNED',
      orderId: o.id,
      orderURL: expect.any(String),
      createdAt: expect.any(String),
      metadata: {
        delivery: {
          courier: {
            id: null,
            name: 'João',
            phone: '11977776666',
            vehicle: { type: 'MOTORCYCLE', licensePlate: 'ABC1D23' },
          },
          route: { id: 'r-1', stopIndex: 0, totalStops: 2 },
          stop: { status: 'PENDING', reason: null },
          location: null,
          estimatedDeliveryDateTime: null,
          trackingUrl: null,
        },
      },
    });
    expect(
      (await stack.admin('POST', `/admin/v1/orders/${o.id}/courier`, { eventType: 'NOPE' })).status,
    ).toBe(400);
    const indoor = await createOrder(stack, merchantId, { type: 'INDOOR' });
    expect(
      (await stack.admin('POST', `/admin/v1/orders/${indoor.id}/courier`, { eventType: 'COURIER_ASSIGNED' }))
        .status,
    ).toBe(422);
  });
});
