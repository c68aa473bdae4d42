// Feed figures for `pnpm bench` (discovered by bench/lib/discover.ts):
//   polling answering 0 / 10 / 100 events through the gateway at full speed (goal: >= 7% / 4.5% /
//   1.8% of bare fastify req/s), then p99 at half that rate (goal <= 15 ms); events produced by the
//   real order intake (admin API).
// The poll-cost-vs-acknowledged-history figure lives in bench/feed-acked.ts.
import type { BenchContext, Scenario } from './lib/types.ts';

async function fillFeed(ctx: BenchContext, merchantId: string, token: string, n: number): Promise<void> {
  for (let i = 0; i < n; i++)
    await ctx.admin('POST', `/admin/v1/merchants/${merchantId}/orders`, { type: 'DELIVERY' });
  const deadline = Date.now() + 60_000;
  for (;;) {
    const r = await ctx.api('/v1/events:polling?limit=200', {
      headers: { authorization: `Bearer ${token}` },
    });
    const events = (await r.json()) as unknown[];
    if (events.length >= n) return;
    if (Date.now() > deadline) throw new Error(`feed holds ${events.length} events, expected ${n}`);
    await new Promise((res) => setTimeout(res, 200));
  }
}

export const scenarios: Scenario[] = [0, 10, 100].map((n) => ({
  name: `feed polling (${n} events)`,
  async run(ctx: BenchContext) {
    const c = await ctx.credential({ scopes: ['orders:read'] });
    await fillFeed(ctx, c.merchantId, c.token, n);
    const res = await ctx.api(`/v1/events:polling?limit=${Math.max(n, 1)}`, {
      headers: { authorization: `Bearer ${c.token}` },
    });
    const body = await res.text();
    if (res.status !== 200 || (JSON.parse(body) as unknown[]).length !== n)
      throw new Error(`polling answered ${res.status} with ${body.slice(0, 200)}`);
    const req = { path: '/v1/events:polling', headers: { authorization: `Bearer ${c.token}` } };
    const max = await ctx.measure(`GET /v1/events:polling (${n} events)`, req, {
      events: n,
      replyBytes: body.length,
    });
    // goal: p99 <= 15 ms at half load (evenly paced)
    const rate = Math.max(1, Math.round((max.reqPerSec ?? 0) / 2));
    await ctx.measure(
      `GET /v1/events:polling (${n} events, half load)`,
      { ...req, overallRate: rate },
      { rate },
    );
  },
}));
