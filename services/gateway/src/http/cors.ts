import fastifyCors from '@fastify/cors';
import type { FastifyInstance } from 'fastify';
import type { GatewayContext } from '../context.ts';

/** Request headers a browser on the developer portal may send. */
const CORS_ALLOWED_HEADERS = ['Authorization', 'Content-Type', 'Idempotency-Key', 'X-Request-Id'];
/** Response headers the portal's scripts may read. */
const CORS_EXPOSED_HEADERS = [
  'x-request-id',
  'RateLimit',
  'RateLimit-Policy',
  'Retry-After',
  'WWW-Authenticate',
  'Idempotent-Replayed',
];
const CORS_METHODS = ['GET', 'POST', 'OPTIONS'];
/** Every other origin (the plugin copies the options it is given: one object for all requests) */
const NO_CORS = Object.freeze({ origin: false });

/**
 * CORS for exactly one origin (config.CORS_ORIGIN, the developer portal), preflight included.
 * Any other origin (or a request without Origin) gets no CORS header at all, and its preflight is
 * not answered by CORS: it falls through to the 404 ProblemDetails of an unknown route.
 */
export async function registerCors(app: FastifyInstance, ctx: GatewayContext): Promise<void> {
  const allowed = new Set(
    ctx.config.CORS_ORIGIN.split(',')
      .map((s) => s.trim())
      .filter(Boolean),
  );
  const granted = {
    methods: CORS_METHODS,
    allowedHeaders: CORS_ALLOWED_HEADERS,
    exposedHeaders: CORS_EXPOSED_HEADERS,
    maxAge: 600,
    credentials: false,
    strictPreflight: false,
  };
  await app.register(fastifyCors, {
    hook: 'onRequest',
    delegator: (request, cb) => {
      const origin = request.headers.origin;
      if (typeof origin === 'string' && allowed.has(origin)) cb(null, { ...granted, origin });
      else cb(null, NO_CORS);
    },
  });
}
