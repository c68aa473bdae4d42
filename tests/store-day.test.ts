import { createMerchant, issueTestToken, readStream, startStack, type TestStack } from '@od/testing';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * A store's day through the Admin API and the public API: the store and service switches, timed
 * pauses that end by themselves, opening hours in the store's zone. Intake of a closed store answers
 * 409 store_closed ({ error, message }) and creates nothing: no order, no event.
 */
let stack: TestStack;
let db: pg.Client;

beforeAll(async () => {
  stack = await startStack({ services: ['catalog', 'orders'] });
  db = new pg.Client({ connectionString: stack.config.DATABASE_URL });
  await db.connect();
});
afterAll(async () => {
  await db?.end();
  await stack?.stop();
});

const patch = (id: string, body: unknown) => stack.admin('PATCH', `/admin/v1/merchants/${id}`, body);
const order = (id: string, body: Record<string, unknown>) =>
  stack.admin('POST', `/admin/v1/merchants/${id}/orders`, body);
const ordersOf = async (merchantId: string) =>
  (await db.query('SELECT count(*)::int AS n FROM orders.orders WHERE merchant_id = $1', [merchantId]))
    .rows[0].n as number;
const createdEventsOf = async (merchantId: string) =>
  (await readStream(stack.config.NATS_URL, stack.prefix)).filter((e) => e.message.merchantId === merchantId)
    .length;

async function expectClosed(r: Response, merchantId: string, before: number) {
  expect(r.status).toBe(409);
  const body = await r.json();
  expect(Object.keys(body).sort()).toEqual(['error', 'message']);
  expect(body.error).toBe('store_closed');
  expect(await ordersOf(merchantId)).toBe(before);
  return body as { error: string; message: string };
}

async function publicMerchant(merchantId: string) {
  const { token } = await issueTestToken(stack, { merchantId, scopes: ['merchant:read'] });
  const r = await stack.api(`/v1/merchant/${merchantId}`, { headers: { authorization: `Bearer ${token}` } });
  expect(r.status).toBe(200);
  return (await r.json()) as Record<string, any>;
}

describe('store switch (the contract: PATCH status UNAVAILABLE closes, AVAILABLE reopens)', () => {
  it('a closed store refuses every order type with 409 store_closed and creates nothing', async () => {
    const { merchantId } = await createMerchant(stack);
    const r = await patch(merchantId, { status: 'UNAVAILABLE' });
    expect(r.status).toBe(200);
    expect((await r.json()).status).toBe('UNAVAILABLE');
    expect((await publicMerchant(merchantId)).status).toBe('UNAVAILABLE');
    for (const type of ['DELIVERY', 'TAKEOUT', 'INDOOR'])
      expect((await expectClosed(await order(merchantId, { type }), merchantId, 0)).message).toBe(
        'A loja está fechada e não recebe pedidos.',
      );
    // scheduled for tomorrow: the switch holds whatever the time
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString();
    await expectClosed(
      await order(merchantId, {
        type: 'DELIVERY',
        orderTiming: 'SCHEDULED',
        schedule: { scheduledDateTimeStart: tomorrow },
      }),
      merchantId,
      0,
    );
    expect(await createdEventsOf(merchantId)).toBe(0);

    expect((await patch(merchantId, { status: 'AVAILABLE' })).status).toBe(200);
    expect((await publicMerchant(merchantId)).status).toBe('AVAILABLE');
    expect((await order(merchantId, { type: 'DELIVERY' })).status).toBe(201);
    expect(await ordersOf(merchantId)).toBe(1);
  });

  it('an Idempotency-Key retry of a refused intake replays the 409 and still creates nothing', async () => {
    const { merchantId } = await createMerchant(stack);
    await patch(merchantId, { status: 'UNAVAILABLE' });
    const send = () =>
      fetch(`${stack.gateway.adminUrl}/admin/v1/merchants/${merchantId}/orders`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${stack.config.ADMIN_TOKEN}`,
          'content-type': 'application/json',
          'idempotency-key': `closed-${merchantId}`,
        },
        body: JSON.stringify({ type: 'TAKEOUT' }),
      });
    await expectClosed(await send(), merchantId, 0);
    await expectClosed(await send(), merchantId, 0);
  });

  it('a test store follows the same rule', async () => {
    const { merchantId } = await createMerchant(stack, { test: true });
    await patch(merchantId, { status: 'UNAVAILABLE' });
    await expectClosed(await order(merchantId, { type: 'TAKEOUT' }), merchantId, 0);
  });
});

describe("an OPEN_DELIVERY point of sale's merchantStatus (Merchant module)", () => {
  it('merchantStatus UNAVAILABLE closes intake like the switch; AVAILABLE reopens it', async () => {
    const { merchantId } = await createMerchant(stack);
    const { token } = await issueTestToken(stack, { merchantId, record: { apiProfile: 'OPEN_DELIVERY' } });
    const status = (merchantStatus: string) =>
      stack.api('/v1/menuUpdated', {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ merchantStatus }),
      });
    expect((await status('UNAVAILABLE')).status).toBe(204);
    await expectClosed(await order(merchantId, { type: 'DELIVERY' }), merchantId, 0);
    expect((await status('AVAILABLE')).status).toBe(204);
    expect((await order(merchantId, { type: 'DELIVERY' })).status).toBe(201);
  });
});

describe('service switches', () => {
  it('a closed DELIVERY refuses delivery orders only; GET merchant shows each service', async () => {
    const { merchantId } = await createMerchant(stack);
    const r = await patch(merchantId, {
      services: [{ serviceType: 'DELIVERY', status: 'UNAVAILABLE' }, { serviceType: 'TAKEOUT' }],
    });
    expect(r.status).toBe(200);
    const m = await publicMerchant(merchantId);
    expect(m.status).toBe('AVAILABLE');
    expect(m.services.map((s: { serviceType: string; status: string }) => [s.serviceType, s.status])).toEqual(
      [
        ['DELIVERY', 'UNAVAILABLE'],
        ['TAKEOUT', 'AVAILABLE'],
      ],
    );
    expect((await expectClosed(await order(merchantId, { type: 'DELIVERY' }), merchantId, 0)).message).toBe(
      'A loja não está recebendo pedidos para entrega.',
    );
    expect((await order(merchantId, { type: 'TAKEOUT' })).status).toBe(201);
    expect((await order(merchantId, { type: 'INDOOR' })).status).toBe(201);
  });
});

describe('pauses end by themselves', () => {
  it('pause { minutes, reason }: 409 and UNAVAILABLE while it lasts, open again once it ends', async () => {
    const { merchantId } = await createMerchant(stack);
    const r = await patch(merchantId, { pause: { minutes: 30, reason: 'Cozinha cheia' } });
    expect(r.status).toBe(200);
    const view = await r.json();
    expect(view.status).toBe('UNAVAILABLE');
    expect(view.switchStatus).toBe('AVAILABLE');
    expect(view.pauseReason).toBe('Cozinha cheia');
    const left = Date.parse(view.pausedUntil) - Date.now();
    expect(left).toBeGreaterThan(29 * 60_000);
    expect(left).toBeLessThanOrEqual(30 * 60_000);
    expect(view.openNow).toEqual([
      { serviceType: 'DELIVERY', open: false, reason: 'STORE_PAUSED' },
      { serviceType: 'TAKEOUT', open: false, reason: 'STORE_PAUSED' },
    ]);
    const closed = await expectClosed(await order(merchantId, { type: 'TAKEOUT' }), merchantId, 0);
    expect(closed.message).toContain('Cozinha cheia');
    expect((await publicMerchant(merchantId)).status).toBe('UNAVAILABLE');

    // the pause now ends in 2 s (no one touches the store after that)
    await db.query(`UPDATE catalog.merchants SET paused_until = now() + interval '2 seconds' WHERE id = $1`, [
      merchantId,
    ]);
    expect((await patch(merchantId, { description: 'cache renewed with the short pause' })).status).toBe(200);
    expect((await publicMerchant(merchantId)).status).toBe('UNAVAILABLE');
    await expectClosed(await order(merchantId, { type: 'TAKEOUT' }), merchantId, 0);
    await new Promise((res) => setTimeout(res, 2500));
    expect((await publicMerchant(merchantId)).status).toBe('AVAILABLE');
    expect((await order(merchantId, { type: 'TAKEOUT' })).status).toBe(201);
  });

  it('pause null resumes at once; a service pause holds that service only', async () => {
    const { merchantId } = await createMerchant(stack);
    await patch(merchantId, { pause: { minutes: 15, reason: 'Falta de gás' } });
    const resumed = await (await patch(merchantId, { pause: null })).json();
    expect(resumed.pausedUntil).toBeNull();
    expect(resumed.status).toBe('AVAILABLE');
    await patch(merchantId, {
      services: [
        { serviceType: 'DELIVERY', pause: { minutes: 60, reason: 'Sem entregador' } },
        { serviceType: 'TAKEOUT' },
      ],
    });
    await expectClosed(await order(merchantId, { type: 'DELIVERY' }), merchantId, 0);
    expect((await order(merchantId, { type: 'TAKEOUT' })).status).toBe(201);
  });

  it('refuses a pause without reason or longer than a day (400, nothing changes)', async () => {
    const { merchantId } = await createMerchant(stack);
    for (const pause of [
      { minutes: 15 },
      { minutes: 0, reason: 'x' },
      { minutes: 1441, reason: 'x' },
      { minutes: 15, reason: '' },
    ]) {
      const r = await patch(merchantId, { pause });
      expect(r.status, JSON.stringify(pause)).toBe(400);
      expect((await r.json()).error).toBe('validation_error');
    }
    expect(
      (await (await stack.admin('GET', `/admin/v1/merchants/${merchantId}`)).json()).pausedUntil,
    ).toBeNull();
  });
});

describe('opening hours in the store time zone', () => {
  const hhmm = (d: Date) => d.toISOString().slice(11, 16);

  it('outside the hours: 409; a scheduled order within them: 201; GET merchant shows serviceHours', async () => {
    const { merchantId } = await createMerchant(stack);
    const now = Date.now();
    // opens in 2 h for 1 h, every day, in UTC (midnight-crossing handled by the rule)
    const start = new Date(now + 2 * 3_600_000);
    const end = new Date(now + 3 * 3_600_000);
    const days = ['MONDAY', 'TUESDAY', 'WEDNESDAY', 'THURSDAY', 'FRIDAY', 'SATURDAY', 'SUNDAY'];
    const r = await patch(merchantId, {
      timeZone: 'UTC',
      serviceHours: {
        weekHours: [{ dayOfWeek: days, timePeriods: { startTime: hhmm(start), endTime: hhmm(end) } }],
      },
    });
    expect(r.status).toBe(200);
    const view = await r.json();
    expect(view.timeZone).toBe('UTC');
    expect(view.status).toBe('AVAILABLE');
    expect(view.openNow[0]).toEqual({ serviceType: 'DELIVERY', open: false, reason: 'OUTSIDE_HOURS' });

    await expectClosed(await order(merchantId, { type: 'DELIVERY' }), merchantId, 0);
    const within = new Date(now + 2.5 * 3_600_000).toISOString();
    const after = new Date(now + 3.5 * 3_600_000).toISOString();
    const sched = (at: string) => ({
      type: 'DELIVERY',
      orderTiming: 'SCHEDULED',
      schedule: { scheduledDateTimeStart: at },
    });
    expect((await order(merchantId, sched(within))).status).toBe(201);
    await expectClosed(await order(merchantId, sched(after)), merchantId, 1);

    const m = await publicMerchant(merchantId);
    for (const s of m.services)
      expect(s.serviceHours).toEqual({
        id: merchantId,
        weekHours: [
          {
            dayOfWeek: days,
            timePeriods: { startTime: `${hhmm(start)}:00+00:00`, endTime: `${hhmm(end)}:00+00:00` },
          },
        ],
        holidayHours: [],
      });

    // a special day today without periods closes it even for the scheduled time
    const today = new Date(now + 2.5 * 3_600_000).toISOString().slice(0, 10);
    await patch(merchantId, {
      serviceHours: {
        weekHours: [{ dayOfWeek: days, timePeriods: { startTime: '00:00', endTime: '00:00' } }],
        holidayHours: [{ date: today }],
      },
    });
    await expectClosed(await order(merchantId, sched(within)), merchantId, 1);
    // no hours at all: always open
    expect((await patch(merchantId, { serviceHours: null })).status).toBe(200);
    expect((await order(merchantId, { type: 'DELIVERY' })).status).toBe(201);
  });

  it('refuses an unknown zone and malformed hours (400)', async () => {
    const { merchantId } = await createMerchant(stack);
    for (const body of [
      { timeZone: 'America/Atlantis' },
      {
        serviceHours: {
          weekHours: [{ dayOfWeek: ['MONDAY'], timePeriods: { startTime: '25:00', endTime: '10:00' } }],
        },
      },
      { serviceHours: { weekHours: [], holidayHours: [{ date: '2026-13-01' }] } },
    ]) {
      const r = await patch(merchantId, body);
      expect(r.status, JSON.stringify(body)).toBe(400);
    }
  });
});

describe('confirmation timeout setting', () => {
  it('default 480 s; N >= 30 is taken, below is 400', async () => {
    const { merchantId } = await createMerchant(stack);
    const get = async () =>
      (await (await stack.admin('GET', `/admin/v1/merchants/${merchantId}`)).json())
        .confirmationTimeoutSeconds;
    expect(await get()).toBe(480);
    expect((await patch(merchantId, { confirmationTimeoutSeconds: 29 })).status).toBe(400);
    expect((await patch(merchantId, { confirmationTimeoutSeconds: 30.5 })).status).toBe(400);
    expect(await get()).toBe(480);
    expect((await patch(merchantId, { confirmationTimeoutSeconds: 30 })).status).toBe(200);
    expect(await get()).toBe(30);
    // the order takes the store's timeout: its deadline is 30 s after it entered PENDING
    const o = await (await order(merchantId, { type: 'TAKEOUT' })).json();
    const view = await (await stack.admin('GET', `/admin/v1/orders/${o.id}`)).json();
    expect(Date.parse(view.confirmBy) - Date.parse(o.createdAt)).toBe(30_000);
  });
});
