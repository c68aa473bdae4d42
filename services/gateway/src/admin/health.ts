import { callRpc } from '@od/bus';
import type { ServiceName } from '@od/contracts';
import type { RouteModule } from '../context.ts';

const SERVICES: ServiceName[] = ['auth', 'catalog', 'orders', 'feed', 'webhook'];

/** GET /admin/v1/health: 200 when every service answers its `health` RPC, else 503. */
export const healthRoutes: RouteModule = (app, ctx) => {
  app.get('/admin/v1/health', async (request, reply) => {
    const entries = await Promise.all(
      SERVICES.map(async (s) => {
        try {
          const r = await callRpc(ctx.nc, ctx.names.rpc(s, 'health'), { traceId: request.id }, 1000);
          return [s, r.status === 200 ? 'ok' : 'failing'] as const;
        } catch {
          return [s, 'unavailable'] as const;
        }
      }),
    );
    const services = Object.fromEntries(entries);
    const ok = entries.every(([, v]) => v === 'ok');
    return reply.code(ok ? 200 : 503).send({ status: ok ? 'ok' : 'degraded', services });
  });
};
