import { COURIER_EVENT_TYPES, POLL_LIMIT_MAX, POLL_PAGE_MAX_BYTES, TEXT } from '@od/contracts';
import {
  ack,
  bearerOf,
  createMerchant,
  createOrder,
  eventually,
  requestToken,
  startStack,
  type TestStack,
} from '@od/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * Issue 9: 200 courier updates with long strings on one order made the next polling page larger
 * than the bus's 1 MiB payload and killed the feed. A page is now bounded by bytes as well as by
 * `limit`: it stops early, and the client polls again for the rest.
 */
let stack: TestStack;
let token: string;
let clientId: string;
const UPDATES = 200;

/** Courier fields at their maximum lengths, in 3-byte characters: the largest event accepted. */
const long = (n: number) => '€'.repeat(n);
const courierUpdate = (i: number) => ({
  eventType: COURIER_EVENT_TYPES[i % COURIER_EVENT_TYPES.length],
  delivery: {
    courier: {
      id: long(TEXT.id),
      name: long(TEXT.name),
      phone: long(TEXT.phone),
      vehicle: { type: long(TEXT.code), licensePlate: long(TEXT.licensePlate) },
    },
    route: { id: long(TEXT.id), stopIndex: i, totalStops: UPDATES + 1 },
    stop: { status: 'EN_ROUTE', reason: long(TEXT.reason) },
    location: { latitude: -23.5, longitude: -46.6 },
    trackingUrl: `https://t.example/${long(TEXT.url - 20)}`,
  },
});

beforeAll(async () => {
  stack = await startStack({
    services: ['auth', 'catalog', 'orders', 'feed'],
    env: { RATE_LIMIT_ENABLED: 'false' },
  });
  const { merchantId } = await createMerchant(stack);
  const c = await stack.admin('POST', `/admin/v1/merchants/${merchantId}/credentials`, {
    name: 'pdv',
    scopes: ['orders:read'],
    deliveryMode: 'POLLING',
  });
  const cred = await c.json();
  clientId = cred.clientId;
  token = (await (await requestToken(stack, cred.clientId, cred.clientSecret)).json()).access_token;
  const order = await createOrder(stack, merchantId);
  for (let i = 0; i < UPDATES; i++) {
    const r = await stack.admin('POST', `/admin/v1/orders/${order.id}/courier`, courierUpdate(i));
    expect(r.status, await r.clone().text()).toBe(202);
  }
}, 120_000);
afterAll(async () => stack?.stop());

const page = async () => {
  const r = await stack.api(`/v1/events:polling?limit=${POLL_LIMIT_MAX}`, bearerOf(token));
  expect(r.status).toBe(200);
  const bytes = Buffer.from(await r.arrayBuffer());
  return { bytes: bytes.length, events: JSON.parse(bytes.toString('utf8')) as { eventId: string }[] };
};

describe('polling pages bounded by bytes', () => {
  it('201 large events: every page stays under the byte budget; polling again drains them all', async () => {
    // CREATED + 200 courier events reach the feed
    const pending = await eventually(
      async () =>
        (await (await stack.admin('GET', `/admin/v1/credentials/${clientId}/events`)).json()).pending,
      (n) => n === UPDATES + 1,
      30_000,
    );
    expect(pending).toBe(UPDATES + 1);
    const seen = new Set<string>();
    let pages = 0;
    const sizes: string[] = [];
    for (;;) {
      const p = await page();
      if (p.events.length === 0) break;
      pages++;
      sizes.push(`${p.events.length} events/${p.bytes} B`);
      expect(p.bytes).toBeLessThanOrEqual(POLL_PAGE_MAX_BYTES);
      expect(p.events.length).toBeLessThan(POLL_LIMIT_MAX);
      for (const e of p.events) seen.add(e.eventId);
      expect(
        (
          await ack(
            stack,
            token,
            p.events.map((e) => e.eventId),
          )
        ).status,
      ).toBe(202);
      if (seen.size >= UPDATES + 1) break;
      expect(pages).toBeLessThan(20);
    }
    console.log(`poll-bytes: pages ${sizes.join(', ')}`);
    expect(seen.size).toBe(UPDATES + 1);
    expect(pages).toBeGreaterThan(1);
    expect((await page()).events).toEqual([]);
    const health = await (await stack.admin('GET', '/admin/v1/health')).json();
    expect(health.services.feed).toBe('ok');
  }, 120_000);
});
