import type {
  FastifyBaseLogger,
  FastifyInstance,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
} from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';

/**
 * The fastify app of an HTTP front door (gateway listeners, panel) with zod route schemas: what a
 * route module receives (types only; each front door builds its own app).
 */
export type ZodApp = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  ZodTypeProvider
>;

/** One year, subdomains included: browsers then refuse plain HTTP to the host (RFC 6797). */
export const HSTS = 'max-age=31536000; includeSubDomains';

/**
 * HTTPS only (SPEC): in production a front door's browser-facing listener (the gateway's public
 * listener, the panel) tells clients to use HTTPS for a year. Not in development and tests (plain
 * http://localhost) and not on the admin listener (cluster-internal).
 */
export function sendHsts(app: FastifyInstance | ZodApp, config: { NODE_ENV: string }): void {
  if (config.NODE_ENV !== 'production') return;
  // a callback hook, not an async one: no promise per request
  (app as FastifyInstance).addHook('onRequest', (_request, reply, done) => {
    reply.header('strict-transport-security', HSTS);
    done();
  });
}
