import { extractContext, recordHttp, runInSpan, SpanKind, startSpan } from '@od/telemetry';
import type { FastifyInstance } from 'fastify';

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
    const span = spans.get(request);
    if (span) {
      span.setAttributes({ 'http.route': route, 'http.response.status_code': reply.statusCode });
      if (reply.statusCode >= 500) span.setStatus({ code: 2 });
      span.end();
    }
    done();
  });
}
