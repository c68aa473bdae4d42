import { randomUUID } from 'node:crypto';
import fastifyJwt from '@fastify/jwt';
import { BYTES } from '@od/contracts';
import { errors } from '@od/errors';
import { sendHsts } from '@od/runtime';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, LogController } from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { GatewayContext, ZodApp } from '../context.ts';
import { publicRoutes } from '../routes/mod.ts';
import { refuseControlCharacters } from './control-chars.ts';
import { registerCors } from './cors.ts';
import { installErrorHandling, sendError } from './errors.ts';
import { docsApp, serveDocs } from './lazy-docs.ts';
import { lazyChildLogger } from './lazy-logger.ts';
import { instrumentHttp } from './telemetry.ts';

/** verified bearer tokens kept (each until its expiry): one per active credential is plenty */
const BEARER_CACHE_SIZE = 10_000;

const REQUEST_ID = /^[A-Za-z0-9\-_.:]{1,128}$/;

/** Shared by both listeners: request id from `x-request-id` when sane, pino logger, zod compilers. */
export function baseApp(ctx: GatewayContext, listener: 'public' | 'admin', bodyLimit: number): ZodApp {
  const app = Fastify({
    loggerInstance: ctx.log as FastifyBaseLogger,
    logController: new LogController({
      disableRequestLogging: ctx.config.LOG_LEVEL !== 'debug' && ctx.config.LOG_LEVEL !== 'trace',
    }),
    childLoggerFactory: (logger, bindings) => lazyChildLogger(logger, bindings),
    bodyLimit,
    trustProxy: ctx.config.TRUST_PROXY ? ctx.config.TRUST_PROXY.split(',').map((s) => s.trim()) : false,
    genReqId: (req) => {
      const h = req.headers['x-request-id'];
      return typeof h === 'string' && REQUEST_ID.test(h) ? h : randomUUID();
    },
    // public: a long path parameter still reaches its route, so the bearer check answers first
    // (401 without a token) and the GUID check then answers 404; the request line itself is bounded
    // by node's header size limit (16 KB)
    routerOptions: { ignoreTrailingSlash: false, maxParamLength: listener === 'public' ? 16_384 : 200 },
    // errors raised before routing (broken percent-encoding, an admin path parameter over 200
    // characters): no such route
    frameworkErrors: (err, request, reply) => {
      reply.header('x-request-id', request.id);
      if (err.code === 'FST_ERR_BAD_URL' || err.code === 'FST_ERR_MAX_PARAM_LENGTH')
        return sendError(
          reply,
          listener === 'admin' ? errors.adminNotFound('Rota') : errors.notFound(request.id),
        );
      request.log.error({ err }, 'framework error');
      return sendError(reply, errors.internal(request.id));
    },
    // requests node's HTTP parser refuses (bytes not allowed in a path, oversized headers...)
    clientErrorHandler: (err: Error & { code?: string }, socket) => {
      if (!socket.writable) return socket.destroy();
      // a HEAD answer has no body (the client would read it as a second, broken response)
      const raw = (err as { rawPacket?: unknown }).rawPacket;
      const head = Buffer.isBuffer(raw) && raw.subarray(0, 5).toString('latin1') === 'HEAD ';
      const status =
        err.code === 'HPE_HEADER_OVERFLOW' ? 431 : err.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
      const body = JSON.stringify({
        type: 'https://tools.ietf.org/html/rfc9110#section-15.5',
        title:
          status === 431
            ? 'Request Header Fields Too Large'
            : status === 408
              ? 'Request Timeout'
              : 'Bad Request',
        status,
        traceId: randomUUID(),
      });
      socket.end(
        `HTTP/1.1 ${status} ${status === 431 ? 'Request Header Fields Too Large' : status === 408 ? 'Request Timeout' : 'Bad Request'}\r\n` +
          `Content-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${head ? '' : body}`,
      );
    },
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  instrumentHttp(app as unknown as FastifyInstance, listener);
  // callback hooks, not async ones, on every request: no promise each
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    done();
  });
  installErrorHandling(app as unknown as FastifyInstance, listener);
  refuseControlCharacters(app as unknown as FastifyInstance);
  return app as unknown as ZodApp;
}

/**
 * The public listener: SPEC routes, OpenAPI document and docs page. `docs`: `lazy` (the listener)
 * answers the docs routes from an `inline` app built on their first request (lazy-docs.ts);
 * `inline` registers @fastify/swagger and swagger-ui on this app.
 */
export async function buildPublicApp(ctx: GatewayContext, docs: 'lazy' | 'inline' = 'lazy'): Promise<ZodApp> {
  const app = baseApp(ctx, 'public', BYTES.publicBody);
  sendHsts(app, ctx.config);
  await registerCors(app as unknown as FastifyInstance, ctx);
  // business bodies are JSON only (64 KB): text/plain is 415, not a string handed to validation
  app.removeContentTypeParser('text/plain');
  // bearer tokens (auth/bearer.ts); auth signs them (HS256, same secret)
  await app.register(fastifyJwt, {
    secret: ctx.config.JWT_SECRET,
    verify: { algorithms: ['HS256'], requiredClaims: ['exp'], cache: BEARER_CACHE_SIZE },
  });
  if (docs === 'inline')
    await (await import('./docs.ts')).registerDocs(
      app as unknown as FastifyInstance,
      'public',
      ctx.config.PUBLIC_BASE_URL,
    );
  else
    serveDocs(
      app as unknown as FastifyInstance,
      docsApp(async () => (await buildPublicApp(ctx, 'inline')) as unknown as FastifyInstance),
    );
  for (const register of publicRoutes) register(app, ctx);
  return app;
}
