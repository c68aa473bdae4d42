import { randomUUID } from 'node:crypto';
import fastifyJwt from '@fastify/jwt';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import { errors } from '@od/errors';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, LogController } from 'fastify';
import {
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import type { GatewayContext, ZodApp } from '../context.ts';
import { publicRoutes } from '../routes/mod.ts';
import { registerCors } from './cors.ts';
import { installErrorHandling, sendError } from './errors.ts';
import { instrumentHttp } from './telemetry.ts';

const REQUEST_ID = /^[A-Za-z0-9\-_.:]{1,128}$/;

/** Shared by both listeners: request id from `x-request-id` when sane, pino logger, zod compilers. */
export function baseApp(ctx: GatewayContext, listener: 'public' | 'admin', bodyLimit: number): ZodApp {
  const app = Fastify({
    loggerInstance: ctx.log as FastifyBaseLogger,
    logController: new LogController({
      disableRequestLogging: ctx.config.LOG_LEVEL !== 'debug' && ctx.config.LOG_LEVEL !== 'trace',
    }),
    bodyLimit,
    trustProxy: ctx.config.TRUST_PROXY ? ctx.config.TRUST_PROXY.split(',').map((s) => s.trim()) : false,
    genReqId: (req) => {
      const h = req.headers['x-request-id'];
      return typeof h === 'string' && REQUEST_ID.test(h) ? h : randomUUID();
    },
    routerOptions: { ignoreTrailingSlash: false, maxParamLength: 200 },
    // errors raised before routing (broken percent-encoding, a path parameter over 200
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
          `Content-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
      );
    },
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  instrumentHttp(app as unknown as FastifyInstance, listener);
  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
  installErrorHandling(app as unknown as FastifyInstance, listener);
  return app as unknown as ZodApp;
}

/** The public listener: SPEC routes, OpenAPI document and docs page. */
export async function buildPublicApp(ctx: GatewayContext): Promise<ZodApp> {
  const app = baseApp(ctx, 'public', 64 * 1024);
  await registerCors(app as unknown as FastifyInstance, ctx);
  // business bodies are JSON only (64 KB): text/plain is 415, not a string handed to validation
  app.removeContentTypeParser('text/plain');
  await app.register(fastifyJwt, {
    secret: ctx.config.JWT_SECRET,
    verify: { algorithms: ['HS256'] },
  });
  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Open Delivery Order and Merchant API',
        version: '1.4.0',
        description: 'Open Delivery 1.4.0 (Order and Merchant modules) with the extensions of this service.',
      },
      servers: [{ url: ctx.config.PUBLIC_BASE_URL }],
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
        },
      },
    },
    transform: jsonSchemaTransform,
  });
  await app.register(fastifySwaggerUi, { routePrefix: '/docs' });
  for (const register of publicRoutes) register(app, ctx);
  return app;
}
