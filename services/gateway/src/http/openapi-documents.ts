import { type Config, loadConfig } from '@od/config';
import { names } from '@od/contracts';
import { createLogger } from '@od/logger';
import type { GatewayContext } from '../context.ts';
import { buildAdminApp } from './admin-app.ts';
import { buildPublicApp } from './public-app.ts';

/**
 * Both OpenAPI documents, built from the routes alone (no listener, no NATS/Redis connection): what
 * `pnpm openapi` writes to docs/ and what the check compares with the checked-in files.
 */
async function openApiDocuments(config: Config): Promise<{ public: unknown; admin: unknown }> {
  // route registration reads only config, names and log; the rest is used while serving requests
  const ctx = { config, names: names(config.NATS_PREFIX), log: createLogger('openapi', 'silent') };
  const pub = await buildPublicApp(ctx as GatewayContext, 'inline');
  const admin = await buildAdminApp(ctx as GatewayContext, 'inline');
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
