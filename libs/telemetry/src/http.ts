import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { recordHttp } from './metrics.ts';
import { edgeEntry, extractContext, runInSpan, SpanKind, startSpan, tracingEnabled } from './tracing.ts';

/** Called once per answered request, after the duration is recorded (outcome counters of a caller). */
export type AfterResponse = (request: FastifyRequest, reply: FastifyReply, route: string) => void;

/**
 * Per request of a fastify listener: a server span (the handler and every RPC it makes run inside
 * it), and `od_http_request_duration_seconds` by listener, route template and status. The route
 * label is the template (`/orders/:orderId`), never the raw URL, and no label carries a user, store,
 * credential or order: ids stay out of the metrics.
 * Callers: `trusted` (the Admin API, inside the platform) continue their W3C `traceparent`;
 * `untrusted` (the public API, the panel) start a new trace linked to theirs, so an outside caller
 * cannot switch tracing on with a sampled flag: sampling stays the operator's (OTEL_*), drawn before
 * any span work, and an unsampled request gets no span and no context at all.
 */
export function instrumentHttp(
  // any type provider, logger or server of fastify
  app: FastifyInstance<any, any, any, any, any>,
  scope: string,
  listener: string,
  callers: 'trusted' | 'untrusted',
  after?: AfterResponse,
): void {
  const spans = new WeakMap<object, ReturnType<typeof startSpan>>();
  app.addHook('onRequest', (request, _reply, done) => {
    if (!tracingEnabled()) return done();
    const carrier = { get: (k: string) => request.headers[k] as string | undefined };
    // a trusted caller's context is continued; a request without one is drawn at the edge as any
    const entry =
      callers === 'trusted' && request.headers.traceparent !== undefined
        ? { parent: extractContext(carrier), links: [] }
        : edgeEntry(callers === 'trusted' ? undefined : carrier);
    // not sampled at the edge: no span, no context for this request
    if (!entry) return done();
    const { parent, links } = entry;
    const span = startSpan(scope, `${request.method} ${request.routeOptions.url ?? 'unmatched'}`, {
      kind: SpanKind.SERVER,
      parent,
      links,
      attributes: { 'http.request.method': request.method, 'od.listener': listener },
    });
    if (!span) return done();
    spans.set(request, span);
    runInSpan(span, done, parent);
  });
  app.addHook('onResponse', (request, reply, done) => {
    const route = request.routeOptions.url ?? 'unmatched';
    recordHttp(listener, route, request.method, reply.statusCode, reply.elapsedTime / 1000);
    after?.(request, reply, route);
    const span = spans.get(request);
    if (span) {
      span.setAttributes({ 'http.route': route, 'http.response.status_code': reply.statusCode });
      if (reply.statusCode >= 500) span.setStatus({ code: 2 });
      span.end();
    }
    done();
  });
}
