import { z } from 'zod';

/**
 * Every error body of the public API (SPEC Errors), as schemas: the OpenAPI document is generated
 * from them and tests check what the error catalogue (@od/errors) builds against them. Clients
 * decide on the status first and the stable `error` code second; `message` is text for people.
 */

/** `{ error, message }` of business routes (400, 401 invalid_token, 403, 404, 409, 422, 429). */
export const businessErrorSchema = z
  .object({
    error: z
      .string()
      .describe(
        'stable code: invalid_idempotency_key, invalid_cancellation_reason, invalid_token, insufficient_scope, order_not_found, idempotency_key_reuse, invalid_transition, rate_limit_exceeded',
      ),
    message: z.string().describe('pt-BR text for people; not stable'),
  })
  .meta({ id: 'BusinessError', example: { error: 'order_not_found', message: 'Pedido não encontrado.' } });

/** 404 of an unknown route, a foreign `merchantId` or an `orderId` that is not a GUID. */
export const problemDetailsSchema = z
  .object({ type: z.string(), title: z.string(), status: z.number().int(), traceId: z.string() })
  .meta({
    id: 'ProblemDetails',
    example: {
      type: 'https://tools.ietf.org/html/rfc9110#section-15.5.5',
      title: 'Not Found',
      status: 404,
      traceId: '7c0f5f4e-1d7b-4c39-9d7e-3f0e7a4b2c11',
    },
  });

/** 400 of an invalid body or query on a business route. */
export const validationProblemSchema = z
  .object({
    type: z.string(),
    title: z.string(),
    status: z.literal(400),
    errors: z.record(z.string(), z.array(z.string())).describe('messages by field, e.g. "limit" or "[0].id"'),
    traceId: z.string(),
  })
  .meta({
    id: 'ValidationProblemDetails',
    example: {
      type: 'https://tools.ietf.org/html/rfc9110#section-15.5.1',
      title: 'One or more validation errors occurred.',
      status: 400,
      errors: { '[0].id': ['id deve ser um GUID.'] },
      traceId: '7c0f5f4e-1d7b-4c39-9d7e-3f0e7a4b2c11',
    },
  });

/** RFC 6749 form of the token endpoint (`401 invalid_client` carries `error` only). */
export const oauthErrorSchema = z
  .object({
    error: z
      .string()
      .describe(
        'invalid_request, unsupported_grant_type, invalid_client, rate_limit_exceeded, temporarily_unavailable',
      ),
    error_description: z.string().optional(),
  })
  .meta({ id: 'OAuthError', example: { error: 'invalid_client' } });

/** 500: the cause is logged under `traceId`, never sent. */
export const internalErrorSchema = z
  .object({ error: z.literal('internal_error'), message: z.string(), traceId: z.string() })
  .meta({
    id: 'InternalError',
    example: {
      error: 'internal_error',
      message: 'Erro interno. Tente novamente.',
      traceId: '7c0f5f4e-1d7b-4c39-9d7e-3f0e7a4b2c11',
    },
  });

/**
 * 503 + `Retry-After` (seconds): a dependency is briefly out of reach (a service, Redis for a keyed
 * action, the gateway's credential view). Nothing was executed; retry after `Retry-After`.
 */
export const SERVICE_UNAVAILABLE = 'service_unavailable';
export const serviceUnavailableSchema = z
  .object({ error: z.literal(SERVICE_UNAVAILABLE), message: z.string(), traceId: z.string() })
  .meta({
    id: 'ServiceUnavailable',
    example: {
      error: SERVICE_UNAVAILABLE,
      message: 'Serviço temporariamente indisponível. Tente novamente.',
      traceId: '7c0f5f4e-1d7b-4c39-9d7e-3f0e7a4b2c11',
    },
  });

/** The Open Delivery `Error` (application/problem+json) an OPEN_DELIVERY credential receives. */
export const odErrorSchema = z
  .object({
    title: z.string(),
    status: z.number().int(),
    error: z.string().optional().describe('the platform stable code (extension member, RFC 9457)'),
    traceId: z.string().optional(),
    errors: z.unknown().optional(),
  })
  .meta({ id: 'OdError' });
