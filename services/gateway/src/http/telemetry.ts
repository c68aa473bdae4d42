import {
  extractContext,
  recordHttp,
  recordIdempotency,
  recordToken,
  runInSpan,
  SpanKind,
  startSpan,
} from '@od/telemetry';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/**
 * Per request: a server span continuing the caller's W3C `traceparent` (the handler and every RPC
 * it makes run inside it), and the duration histogram by route template and status. The route
 * label is the template (`/orders/:orderId`), never the raw URL: ids stay out of the metrics.
 */
export function instrumentHttp(app: FastifyInstance, listener: 'public' | 'admin'): void {
  const spans = new WeakMap<object, ReturnType<typeof startSpan>>();
  app.addHook('onRequest', (request, _reply, done) => {
    const parent = extractContext({ get: (k: string) => request.headers[k] as string | undefined });
    const span = startSpan('gateway', `${request.method} ${request.routeOptions.url ?? 'unmatched'}`, {
      kind: SpanKind.SERVER,
      parent,
      attributes: { 'http.request.method': request.method, 'od.listener': listener },
    });
    if (!span) return done();
    spans.set(request, span);
    runInSpan(span, done, parent);
  });
  app.addHook('onResponse', (request, reply, done) => {
    const route = request.routeOptions.url ?? 'unmatched';
    recordHttp(listener, route, request.method, reply.statusCode, reply.elapsedTime / 1000);
    recordOutcomes(request, reply, route);
    const span = spans.get(request);
    if (span) {
      span.setAttributes({ 'http.route': route, 'http.response.status_code': reply.statusCode });
      if (reply.statusCode >= 500) span.setStatus({ code: 2 });
      span.end();
    }
    done();
  });
  // the OAuth error code of a refused token request (the body is small; token routes only)
  app.addHook('onSend', (request, reply, payload, done) => {
    if (TOKEN_ROUTES.has(request.routeOptions.url ?? '') && reply.statusCode >= 400) {
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
