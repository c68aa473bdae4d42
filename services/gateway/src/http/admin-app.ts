import { timingSafeEqual } from 'node:crypto';
import { BYTES } from '@od/contracts';
import { errors } from '@od/errors';
import type { FastifyInstance } from 'fastify';
import { adminRoutes } from '../admin/mod.ts';
import type { GatewayContext, ZodApp } from '../context.ts';
import { sendError } from './errors.ts';
import { docsApp } from './lazy-docs.ts';
import { baseApp } from './public-app.ts';

/**
 * The admin listener (never public): every route requires `Authorization: Bearer <ADMIN_TOKEN>`.
 * `docs` as for the public listener (public-app.ts): `lazy` builds the document on its first request.
 */
export async function buildAdminApp(ctx: GatewayContext, docs: 'lazy' | 'inline' = 'lazy'): Promise<ZodApp> {
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
  // the Admin API's own document (behind the admin token like every admin route)
  if (docs === 'inline') {
    await (await import('./docs.ts')).registerDocs(
      app as unknown as FastifyInstance,
      'admin',
      `http://localhost:${ctx.config.ADMIN_PORT}`,
    );
    app.get('/admin/v1/openapi.json', { schema: { hide: true } }, async () => app.swagger());
  } else {
    const inline = docsApp(async () => (await buildAdminApp(ctx, 'inline')) as unknown as FastifyInstance);
    app.get('/admin/v1/openapi.json', { schema: { hide: true } }, async () => (await inline()).swagger());
  }
  for (const register of adminRoutes) register(app, ctx);
  return app;
}
