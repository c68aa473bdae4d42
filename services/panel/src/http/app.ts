import { randomUUID } from 'node:crypto';
import { errors, fieldErrorsFromIssues, type HttpError, isHttpException } from '@od/errors';
import { sendHsts } from '@od/runtime';
import { instrumentHttp } from '@od/telemetry';
import Fastify, {
  type FastifyBaseLogger,
  type FastifyError,
  type FastifyReply,
  LogController,
} from 'fastify';
import {
  hasZodFastifySchemaValidationErrors,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import type { PanelApp, PanelContext, PanelRoutes } from '../context.ts';
import { credentialRoutes } from '../handlers/credentials.ts';
import { eventRoutes } from '../handlers/events.ts';
import { menuRoutes } from '../handlers/menu.ts';
import { orderRoutes } from '../handlers/orders.ts';
import { orderStreamRoutes } from '../handlers/orders-stream.ts';
import { overviewRoutes } from '../handlers/overview.ts';
import { sessionRoutes, signedOutRoutes } from '../handlers/session.ts';
import { staticRoutes } from '../handlers/static.ts';
import { storeRoutes } from '../handlers/store.ts';
import { webhookRoutes } from '../handlers/webhook.ts';
import { requireSession } from './guards.ts';

function sendError(reply: FastifyReply, e: HttpError): FastifyReply {
  reply.code(e.status);
  if (e.headers) reply.headers(e.headers);
  if (e.body === undefined) return reply.send();
  return reply.type('application/json; charset=utf-8').send(JSON.stringify(e.body));
}

const toIssue = (v: { instancePath?: string; message?: string; params?: unknown }) => {
  const issue = (v.params as { issue?: { path?: PropertyKey[] } })?.issue;
  return {
    path: issue?.path ?? (v.instancePath ?? '').split('/').filter(Boolean),
    message: v.message ?? 'inválido',
  };
};

/** Every signed-in API family; one file each. */
const signedInRoutes: PanelRoutes[] = [
  sessionRoutes,
  storeRoutes,
  credentialRoutes,
  webhookRoutes,
  eventRoutes,
  overviewRoutes,
  menuRoutes,
  orderRoutes,
  orderStreamRoutes,
];

/** The panel's HTTP surface: `/panel/api/*` (JSON, admin error form) and the page under `/panel/`. */
export function buildPanelApp(ctx: PanelContext, webDir: string): PanelApp {
  const app = Fastify({
    loggerInstance: ctx.base.log as FastifyBaseLogger,
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: 1024 * 1024,
    trustProxy: ctx.base.config.TRUST_PROXY
      ? ctx.base.config.TRUST_PROXY.split(',').map((s) => s.trim())
      : false,
    genReqId: () => randomUUID(),
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  // span and duration by route template (`/panel/api/stores/:merchantId/...`): never a user or store
  instrumentHttp(app, 'panel', 'panel', 'untrusted');
  sendHsts(app, ctx.base.config);
  app.setNotFoundHandler((_request, reply) => sendError(reply, errors.adminNotFound('Rota')));
  app.setErrorHandler((err: FastifyError, request, reply) => {
    if (isHttpException(err)) return sendError(reply, err.http);
    if (hasZodFastifySchemaValidationErrors(err)) {
      if (err.validationContext === 'params') return sendError(reply, errors.adminNotFound('Recurso'));
      return sendError(
        reply,
        errors.adminValidation('Requisição inválida.', fieldErrorsFromIssues(err.validation.map(toIssue))),
      );
    }
    const status = err.statusCode ?? 500;
    if (status < 500) return sendError(reply, errors.adminBadRequest(status, err.message));
    request.log.error({ err }, 'panel request failed');
    return sendError(reply, errors.internal(request.id));
  });
  app.addHook('onSend', async (_request, reply) => {
    reply.header('X-Content-Type-Options', 'nosniff');
    reply.header('Referrer-Policy', 'same-origin');
    reply.header('X-Frame-Options', 'DENY');
  });
  signedOutRoutes(app, ctx);
  app.register(async (scope) => {
    const api = scope as unknown as PanelApp;
    // onRequest: session and CSRF before the body is read or validated (anonymous callers learn nothing of it)
    api.addHook('onRequest', requireSession(ctx));
    api.addHook('onSend', async (_request, reply) => {
      reply.header('Cache-Control', 'no-store');
    });
    for (const register of signedInRoutes) register(api, ctx);
  });
  staticRoutes(webDir)(app, ctx);
  return app;
}
