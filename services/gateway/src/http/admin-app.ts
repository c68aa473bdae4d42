import { timingSafeEqual } from 'node:crypto';
import { BYTES } from '@od/contracts';
import { errors } from '@od/errors';
import { adminRoutes } from '../admin/mod.ts';
import type { GatewayContext, ZodApp } from '../context.ts';
import { sendError } from './errors.ts';
import { baseApp } from './public-app.ts';

/** The admin listener (never public): every route requires `Authorization: Bearer <ADMIN_TOKEN>`. */
export async function buildAdminApp(ctx: GatewayContext): Promise<ZodApp> {
  const app = baseApp(ctx, 'admin', BYTES.adminBody);
  const expected = Buffer.from(`Bearer ${ctx.config.ADMIN_TOKEN}`);
  app.addHook('onRoute', (route) => {
    route.config = { ...(route.config ?? {}), family: 'admin' };
  });
  app.addHook('onRequest', async (request, reply) => {
    const got = Buffer.from(request.headers.authorization ?? '');
    if (got.length !== expected.length || !timingSafeEqual(got, expected)) {
      return sendError(reply, errors.adminUnauthorized());
    }
  });
  for (const register of adminRoutes) register(app, ctx);
  return app;
}
