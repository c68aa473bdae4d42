import type { Scenario } from '../types.ts';

/**
 * Core figure (issue goal): authenticated GET /v1/merchant/{id} through the gateway at full speed,
 * then its p99 at half the measured rate.
 */
export const merchantRead: Scenario = {
  name: 'merchant read',
  async run(ctx) {
    const c = await ctx.credential({ scopes: ['merchant:read'] });
    const req = { path: `/v1/merchant/${c.merchantId}`, headers: { authorization: `Bearer ${c.token}` } };
    const check = await ctx.api(req.path, { headers: req.headers });
    if (check.status !== 200)
      throw new Error(`GET ${req.path} answered ${check.status}: ${await check.text()}`);
    const max = await ctx.measure('GET /v1/merchant/{id} (max)', req);
    const rate = Math.max(1, Math.round((max.reqPerSec ?? 0) / 2));
    await ctx.measure('GET /v1/merchant/{id} (half load)', { ...req, overallRate: rate });
    // the same paced load on bare fastify: how much of that p99 is the machine itself
    await ctx.measure('bare fastify at the same rate', { path: `${ctx.bareUrl}/`, overallRate: rate });
  },
};

export const coreScenarios: Scenario[] = [merchantRead];
