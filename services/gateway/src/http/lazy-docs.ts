import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/**
 * The app that serves a listener's documents: the same routes with @fastify/swagger registered,
 * never listening, built on the first request for a document (then kept). A failed build is tried
 * again by the next request.
 */
export function docsApp(build: () => Promise<FastifyInstance>): () => Promise<FastifyInstance> {
  let app: Promise<FastifyInstance> | undefined;
  return () => {
    app ??= build()
      .then(async (a) => {
        await a.ready();
        return a;
      })
      .catch((e) => {
        app = undefined;
        throw e;
      });
    return app;
  };
}

/** what the listener itself sets, or what belongs to the injected exchange only */
const NOT_COPIED = new Set(['content-length', 'connection', 'date', 'keep-alive', 'transfer-encoding']);

/**
 * GET/HEAD `/docs` and `/docs/*` (swagger-ui's page, assets and `/docs/json`) answered by the docs
 * app through `inject`: the listener's hooks (request id, HSTS, CORS) ran already; the request id
 * is passed on, so the docs app answers under the same one.
 */
export function serveDocs(app: FastifyInstance, docs: () => Promise<FastifyInstance>): void {
  const handler = async (request: FastifyRequest, reply: FastifyReply) => {
    const r = await (await docs()).inject({
      method: request.method as 'GET' | 'HEAD',
      url: request.raw.url ?? request.url,
      headers: { ...request.headers, 'x-request-id': request.id },
    });
    reply.code(r.statusCode);
    for (const [k, v] of Object.entries(r.headers))
      if (v !== undefined && !NOT_COPIED.has(k)) reply.header(k, v);
    return reply.send(r.rawPayload);
  };
  for (const url of ['/docs', '/docs/*'])
    app.route({ method: ['GET', 'HEAD'], url, schema: { hide: true }, handler });
}
