import { errors, fieldErrorsFromIssues, type HttpError, type IssueLike, isHttpException } from '@od/errors';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';

export function sendError(reply: FastifyReply, e: HttpError): FastifyReply {
  reply.code(e.status);
  if (e.headers) reply.headers(e.headers);
  if (e.body === undefined) return reply.send();
  return reply.type('application/json; charset=utf-8').send(JSON.stringify(e.body));
}

/**
 * Route families decide the body form of their errors (SPEC Errors table). A route declares its
 * family in `config.family`; business routes are the default.
 */
export type RouteFamily = 'business' | 'token' | 'admin';

declare module 'fastify' {
  interface FastifyContextConfig {
    family?: RouteFamily;
  }
}

export function familyOf(request: FastifyRequest): RouteFamily {
  return request.routeOptions.config?.family ?? 'business';
}

/** Maps every failure, including fastify's own (parsing, size, validation), onto the catalogue. */
export function installErrorHandling(app: FastifyInstance, listener: 'public' | 'admin'): void {
  app.setNotFoundHandler((request, reply) =>
    sendError(reply, listener === 'admin' ? errors.adminNotFound('Rota') : errors.notFound(request.id)),
  );
  app.setErrorHandler((err: FastifyError, request, reply) => {
    if (isHttpException(err)) return sendError(reply, err.http);
    const family = familyOf(request);
    const code = err.code;
    const status = err.statusCode ?? 500;
    if (family === 'token') {
      if (code === 'FST_ERR_CTP_BODY_TOO_LARGE') return sendError(reply, errors.tokenBodyTooLarge());
      if (code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE')
        return sendError(reply, errors.tokenUnsupportedMediaType());
      if (status < 500) return sendError(reply, errors.tokenInvalidRequest('Corpo da requisição ilegível.'));
    }
    if (family === 'admin') {
      if (code === 'FST_ERR_CTP_BODY_TOO_LARGE')
        return sendError(reply, errors.adminPayloadTooLarge('O corpo da requisição é grande demais.'));
      // a path parameter out of its shape (too long, not an id) names no resource
      if (hasZodFastifySchemaValidationErrors(err) && err.validationContext === 'params')
        return sendError(reply, errors.adminNotFound('Recurso'));
      if (hasZodFastifySchemaValidationErrors(err)) {
        return sendError(
          reply,
          errors.adminValidation('Requisição inválida.', fieldErrorsFromIssues(err.validation.map(toIssue))),
        );
      }
      if (status < 500) return sendError(reply, errors.adminBadRequest(status, err.message));
    }
    if (hasZodFastifySchemaValidationErrors(err)) {
      // a path parameter that is not a GUID means "no such resource"
      if (err.validationContext === 'params') return sendError(reply, errors.notFound(request.id));
      return sendError(
        reply,
        errors.validation(fieldErrorsFromIssues(err.validation.map(toIssue)), request.id),
      );
    }
    if (code === 'FST_ERR_CTP_BODY_TOO_LARGE') return sendError(reply, errors.payloadTooLarge(request.id));
    if (code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE')
      return sendError(reply, errors.unsupportedMediaType(request.id));
    if (status >= 400 && status < 500) {
      return sendError(reply, errors.validation({ $: [err.message] }, request.id));
    }
    request.log.error({ err }, 'unhandled error');
    return sendError(reply, errors.internal(request.id));
  });
}

/** fastify-type-provider-zod's error entry as a zod issue: `keyword` = zod code, `params` = the rest. */
function toIssue(v: {
  keyword?: string;
  instancePath?: string;
  message?: string;
  params?: unknown;
}): IssueLike {
  // instancePath carries array indexes as strings: numeric segments become indexes ("[0].id")
  const path = (v.instancePath ?? '')
    .split('/')
    .filter(Boolean)
    .map((s) => (/^\d+$/.test(s) ? Number(s) : s));
  const errors = (v.params as { errors?: IssueLike[][] } | undefined)?.errors;
  return { path, code: v.keyword, errors, message: v.message };
}
