// Orders figures for `pnpm bench` (discovered by bench/lib/discover.ts):
//   - lifecycle actions per second through the gateway at full speed (startPreparation / confirm
//     alternating on 50 orders: every call is a real transition, half of them emit an event);
//   - at half that rate, evenly paced: latency from each confirm's 202 to its CONFIRMED event in
//     JetStream (goal p99 <= 20 ms) and to the event visible in polling (goal p99 <= 25 ms).
import { DeliverPolicy, jetstream } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { names } from '@od/contracts';
import type { BenchContext, Scenario } from './lib/types.ts';

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] : Number.NaN;
};
const round = (x: number) => Math.round(x * 100) / 100;

async function createOrders(ctx: BenchContext, merchantId: string, n: number): Promise<string[]> {
  const ids: string[] = [];
  const worker = async () => {
    while (ids.length < n) {
      const o = await ctx.admin<{ id: string }>('POST', `/admin/v1/merchants/${merchantId}/orders`, {
        type: 'DELIVERY',
      });
      ids.push(o.id);
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
  return ids.slice(0, n);
}

export const scenarios: Scenario[] = [
  {
    name: 'orders actions',
    async run(ctx) {
      const c = await ctx.credential({ scopes: ['orders:write', 'orders:read'] });
      const auth = { authorization: `Bearer ${c.token}` };
      const warm = await createOrders(ctx, c.merchantId, 50);
      for (const id of warm) await ctx.api(`/v1/orders/${id}/confirm`, { method: 'POST', headers: auth });
      let i = 0;
      const max = await ctx.measure(
        'POST /v1/orders/{id}/{action} (max)',
        {
          path: '/',
          requests: [
            {
              method: 'POST',
              headers: auth,
              setupRequest: (req: any) => {
                const n = i++;
                const action = Math.floor(n / warm.length) % 2 === 0 ? 'startPreparation' : 'confirm';
                return { ...req, path: `/v1/orders/${warm[n % warm.length]}/${action}` };
              },
            },
          ],
        },
        { orders: warm.length },
      );

      // half load, evenly paced: one confirm per fresh order, its event awaited in JetStream and polling
      const rate = Math.max(1, Math.round((max.reqPerSec ?? 0) / 2));
      const seconds = 3;
      const ids = await createOrders(ctx, c.merchantId, Math.min(1500, rate * seconds));
      const nc = await connect({ servers: ctx.nats.url, noAsyncTraces: true });
      const n = names(ctx.nats.prefix);
      const inStream = new Map<string, number>();
      const inFeed = new Map<string, number>();
      const consumer = await jetstream(nc).consumers.get(n.orderEventsStream, {
        deliver_policy: DeliverPolicy.New,
      });
      const messages = await consumer.consume();
      void (async () => {
        for await (const m of messages) {
          const env = m.json<{ envelope: { orderId: string; eventType: string } }>().envelope;
          if (env.eventType === 'CONFIRMED') inStream.set(env.orderId, performance.now());
        }
      })();
      // drain what the feed already holds, then poll back to back and ack what we saw
      let polling = true;
      const poller = (async () => {
        while (polling) {
          const r = await ctx.api('/v1/events:polling?limit=200', { headers: auth });
          const events = (await r.json()) as { eventId: string; eventType: string; orderId: string }[];
          const now = performance.now();
          for (const e of events)
            if (e.eventType === 'CONFIRMED' && !inFeed.has(e.orderId)) inFeed.set(e.orderId, now);
          if (events.length)
            await ctx.api('/v1/events/acknowledgment', {
              method: 'POST',
              headers: { ...auth, 'content-type': 'application/json' },
              body: JSON.stringify(events.map((e) => ({ id: e.eventId }))),
            });
        }
      })();
      await new Promise((r) => setTimeout(r, 500));
      const answered = new Map<string, number>();
      const t0 = performance.now();
      await Promise.all(
        ids.map(async (id, k) => {
          const due = t0 + (k * 1000) / rate;
          const wait = due - performance.now();
          if (wait > 0) await new Promise((r) => setTimeout(r, wait));
          const res = await ctx.api(`/v1/orders/${id}/confirm`, { method: 'POST', headers: auth });
          await res.arrayBuffer();
          if (res.status === 202) answered.set(id, performance.now());
        }),
      );
      const deadline = performance.now() + 10_000;
      while ((inStream.size < answered.size || inFeed.size < answered.size) && performance.now() < deadline)
        await new Promise((r) => setTimeout(r, 50));
      polling = false;
      await poller;
      await messages.close();
      await nc.close();
      const toStream = [...answered]
        .map(([id, t]) => (inStream.get(id) ?? Number.NaN) - t)
        .filter(Number.isFinite);
      const toFeed = [...answered]
        .map(([id, t]) => (inFeed.get(id) ?? Number.NaN) - t)
        .filter(Number.isFinite);
      // an event can reach the stream before the 202 reaches us: that counts as 0
      const clamp = (xs: number[]) => xs.map((x) => Math.max(0, x));
      ctx.record({
        name: 'confirm 202 -> CONFIRMED in JetStream (half load)',
        p50Ms: round(pct(clamp(toStream), 50)),
        p99Ms: round(pct(clamp(toStream), 99)),
        extra: { rate, actions: answered.size, events: toStream.length },
      });
      ctx.record({
        name: 'confirm 202 -> CONFIRMED visible in polling (half load)',
        p50Ms: round(pct(clamp(toFeed), 50)),
        p99Ms: round(pct(clamp(toFeed), 99)),
        extra: { rate, actions: answered.size, events: toFeed.length },
      });
    },
  },
];
