// Action -> event latency: `npx tsx bench/orders-latency.ts [orders=300] [concurrency=1]`.
// Starts an isolated in-process stack (catalog + orders + gateway), creates orders, confirms each
// through the public API and reads the CONFIRMED events back with a JetStream ordered consumer.
// Reports p50/p99 of request start -> event stored in JetStream, and of 202 received -> event, and
// of request start -> CONFIRMED visible to a client polling as fast as it can (feed included).
// `pause=<ms>` (4th argument, default 20) spaces the confirms: an idle stack between actions.
import { jetstream } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { names } from '@od/contracts';
import { ack, createMerchant, createOrder, issueTestToken, poll, startStack } from '@od/testing';

const N = Number(process.argv[2] ?? 300);
const CONCURRENCY = Number(process.argv[3] ?? 1);
const PAUSE_MS = Number(process.argv[4] ?? 20);
const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};

// the poller polls without pause: far above 600 calls a minute
const stack = await startStack({
  services: ['catalog', 'orders', 'feed'],
  env: { RATE_LIMIT_ENABLED: 'false' },
});
const nc = await connect({ servers: stack.config.NATS_URL });
try {
  const { merchantId } = await createMerchant(stack);
  const { token } = await issueTestToken(stack, { merchantId, scopes: ['orders:write', 'orders:read'] });
  const ids: string[] = [];
  for (let i = 0; i < N; i++) ids.push((await createOrder(stack, merchantId, { type: 'DELIVERY' })).id);

  const arrived = new Map<string, number>();
  const n = names(stack.config.NATS_PREFIX);
  const consumer = await jetstream(nc).consumers.get(n.orderEventsStream); // ordered consumer
  const messages = await consumer.consume();
  void (async () => {
    for await (const m of messages) {
      const env = m.json<{ envelope: { orderId: string; eventType: string } }>().envelope;
      if (env.eventType === 'CONFIRMED') arrived.set(env.orderId, performance.now());
    }
  })();

  // a point of sale polling without pause, acknowledging what it gets
  const { token: pollToken } = await issueTestToken(stack, { merchantId, scopes: ['orders:read'] });
  const visible = new Map<string, number>();
  let polling = true;
  const poller = (async () => {
    while (polling) {
      const events = await poll(stack, pollToken, '?limit=200');
      const now = performance.now();
      for (const e of events)
        if (e.eventType === 'CONFIRMED' && !visible.has(e.orderId)) visible.set(e.orderId, now);
      if (events.length)
        await ack(
          stack,
          pollToken,
          events.map((e) => e.eventId),
        );
    }
  })();

  const sent = new Map<string, number>();
  const answered = new Map<string, number>();
  let next = 0;
  const worker = async () => {
    while (next < ids.length) {
      const id = ids[next++];
      sent.set(id, performance.now());
      const r = await stack.api(`/v1/orders/${id}/confirm`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}` },
      });
      answered.set(id, performance.now());
      if (r.status !== 202) throw new Error(`confirm: ${r.status}`);
      await r.arrayBuffer();
      if (PAUSE_MS) await new Promise((res) => setTimeout(res, PAUSE_MS));
    }
  };
  const t0 = performance.now();
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  const elapsed = performance.now() - t0;
  const deadline = Date.now() + 15_000;
  while ((arrived.size < ids.length || visible.size < ids.length) && Date.now() < deadline)
    await new Promise((r) => setTimeout(r, 20));
  await messages.close();
  polling = false;
  await poller;

  // GET /v1/orders/{id} (hot path: stored document forwarded as bytes), same concurrency
  const gets: number[] = [];
  let g = 0;
  const reader = async () => {
    while (g < ids.length) {
      const id = ids[g++];
      const s = performance.now();
      const r = await stack.api(`/v1/orders/${id}`, { headers: { authorization: `Bearer ${token}` } });
      await r.arrayBuffer();
      gets.push(performance.now() - s);
      if (r.status !== 200) throw new Error(`get: ${r.status}`);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, reader));

  const fromSend = ids.map((id) => (arrived.get(id) ?? Number.NaN) - (sent.get(id) ?? 0));
  const from202 = ids.map((id) => Math.max(0, (arrived.get(id) ?? Number.NaN) - (answered.get(id) ?? 0)));
  const toPolling = ids.map((id) => (visible.get(id) ?? Number.NaN) - (sent.get(id) ?? 0));
  const http = ids.map((id) => (answered.get(id) ?? 0) - (sent.get(id) ?? 0));
  const f = (x: number) => `${x.toFixed(2)} ms`;
  console.log(
    JSON.stringify(
      {
        orders: N,
        concurrency: CONCURRENCY,
        actionsPerSecond: Math.round((N / elapsed) * 1000),
        eventsSeen: arrived.size,
        action202: { p50: f(pct(http, 50)), p99: f(pct(http, 99)) },
        getOrder200: { p50: f(pct(gets, 50)), p99: f(pct(gets, 99)) },
        requestToEventInJetStream: { p50: f(pct(fromSend, 50)), p99: f(pct(fromSend, 99)) },
        after202ToEventInJetStream: { p50: f(pct(from202, 50)), p99: f(pct(from202, 99)) },
        eventsVisibleInPolling: visible.size,
        requestToConfirmedInPolling: { p50: f(pct(toPolling, 50)), p99: f(pct(toPolling, 99)) },
      },
      null,
      2,
    ),
  );
} finally {
  await nc.close();
  await stack.stop();
}
