import fastifySwagger from '@fastify/swagger';
import { type Config, loadConfig } from '@od/config';
import { names } from '@od/contracts';
import { createLogger } from '@od/logger';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import type { GatewayContext } from '../context.ts';
import { buildAdminApp } from './admin-app.ts';
import { buildPublicApp } from './public-app.ts';

/** SPEC Versioning: description version 1.4.0 with the revision date marker 2026-09-19. */
export const SPEC_VERSION = '1.4.0';
export const SPEC_REVISION_DATE = '2026-09-19';

const info = (title: string, what: string) => ({
  title,
  version: SPEC_VERSION,
  description:
    `${what} Open Delivery ${SPEC_VERSION} (Order and Merchant modules) with the extensions of this ` +
    `service. Revision ${SPEC_REVISION_DATE}. Every string, array and body has an explicit limit ` +
    '(maxLength, maxItems; body sizes in each route description); control characters other than ' +
    'tab, line feed and carriage return are refused with 400.',
  'x-revision-date': SPEC_REVISION_DATE,
});

/** @fastify/swagger on one listener; the document is built from the routes' zod schemas. */
export async function registerOpenApi(
  app: FastifyInstance,
  listener: 'public' | 'admin',
  serverUrl: string,
): Promise<void> {
  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.1.0',
      info:
        listener === 'public'
          ? info('Open Delivery Order and Merchant API', 'Public API (integrators).')
          : info('Open Delivery platform Admin API', 'Admin API (panel, channels, support; never public).'),
      servers: [{ url: serverUrl }],
      components: {
        securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
      },
    },
    transform: jsonSchemaTransform,
  });
}

/**
 * Both OpenAPI documents, built from the routes alone (no listener, no NATS/Redis connection): what
 * `pnpm openapi` writes to docs/ and what the check compares with the checked-in files.
 */
export async function openApiDocuments(config: Config): Promise<{ public: unknown; admin: unknown }> {
  // route registration reads only config, names and log; the rest is used while serving requests
  const ctx = { config, names: names(config.NATS_PREFIX), log: createLogger('openapi', 'silent') };
  const pub = await buildPublicApp(ctx as GatewayContext);
  const admin = await buildAdminApp(ctx as GatewayContext);
  await Promise.all([pub.ready(), admin.ready()]);
  const docs = { public: pub.swagger(), admin: admin.swagger() };
  await Promise.all([pub.close(), admin.close()]);
  return docs;
}

/**
 * The checked-in files (docs/<name> -> text): built with the default development configuration, so
 * the result depends on the code only (servers: localhost).
 */
export async function openApiFiles(): Promise<Record<string, string>> {
  const docs = await openApiDocuments(
    // placeholders: no secret is read while building the documents
    loadConfig({
      LOG_LEVEL: 'silent',
      ADMIN_TOKEN: 'openapi-export-placeholder',
      JWT_SECRET: 'openapi-export-placeholder-0123456789abcdef',
    }),
  );
  const text = (d: unknown) => `${JSON.stringify(d, null, 2)}\n`;
  return { 'openapi.json': text(docs.public), 'openapi-admin.json': text(docs.admin) };
}
