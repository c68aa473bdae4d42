import fastifySwaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { registerOpenApi } from './openapi.ts';

/**
 * The OpenAPI document of a listener (and the docs page on the public one). Imported only by the
 * app that builds the documents (lazy-docs.ts, `pnpm openapi`): @fastify/swagger, swagger-ui,
 * @fastify/static and yaml cost ~4 MB resident, which a gateway nobody reads the docs of never pays.
 */
export async function registerDocs(
  app: FastifyInstance,
  listener: 'public' | 'admin',
  serverUrl: string,
): Promise<void> {
  await registerOpenApi(app, listener, serverUrl);
  if (listener === 'public') await app.register(fastifySwaggerUi, { routePrefix: '/docs' });
}
