import { instrumentHttp as instrument, recordIdempotency, recordToken } from '@od/telemetry';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/**
 * The shared per-request span and duration histogram of @od/telemetry (route templates, never ids),
 * plus what only the gateway knows: token and Idempotency-Key outcomes.
 */
export function instrumentHttp(app: FastifyInstance, listener: 'public' | 'admin'): void {
  // the public listener's callers are outside: they cannot force sampling (libs/telemetry)
  instrument(app, 'gateway', listener, listener === 'public' ? 'untrusted' : 'trusted', recordOutcomes);
  // the OAuth error code of a refused token request (the body is small; token routes only)
  app.addHook('onSend', (request, reply, payload, done) => {
    // the status first: fastify builds `routeOptions` anew at each read
    if (reply.statusCode >= 400 && TOKEN_ROUTES.has(request.routeOptions.url ?? '')) {
      const code =
        typeof payload === 'string' ? /"error"\s*:\s*"([a-z_]{1,40})"/.exec(payload)?.[1] : undefined;
      tokenErrors.set(request, code ?? String(reply.statusCode));
    }
    done(null, payload);
  });
}

const TOKEN_ROUTES = new Set(['/oauth/token', '/v1/oauth/token']);
const tokenErrors = new WeakMap<object, string>();

/** Token and Idempotency-Key outcomes, read from the answer whatever component produced it. */
function recordOutcomes(request: FastifyRequest, reply: FastifyReply, route: string): void {
  if (TOKEN_ROUTES.has(route)) {
    if (reply.statusCode === 200) recordToken('issued');
    else recordToken('refused', tokenErrors.get(request) ?? String(reply.statusCode));
  }
  if (request.headers['idempotency-key'] === undefined || reply.statusCode >= 500) return;
  if (reply.getHeader('idempotent-replayed') === 'true') recordIdempotency('replayed');
  else if (reply.statusCode === 409) recordIdempotency('conflict');
  else recordIdempotency('stored');
}
