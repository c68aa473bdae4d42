import { businessErrorSchema, problemDetailsSchema, validationProblemSchema } from '@od/contracts';
import { z } from 'zod';

/**
 * The documented answers of a public route (its `schema.response`), built from the contracts'
 * schemas: the route names its success and the errors its own rules produce; what every
 * authenticated route can answer (401, 403 scope, 429, 500, 503 with Retry-After) is added to the
 * OpenAPI document by `completeResponses` (openapi.ts).
 */
export const json = (description: string, schema: z.ZodType) => ({
  description,
  content: { 'application/json': { schema } },
});

export const responses = {
  /** 400 of a business route: a stable code (`invalid_idempotency_key`, ...) or a field map */
  badRequest: json(
    'Invalid request: `{ error, message }` with a stable code, or ValidationProblemDetails',
    z.union([businessErrorSchema, validationProblemSchema]),
  ),
  validation: json('Invalid body or query (ValidationProblemDetails)', validationProblemSchema),
  /** 404 of an order route: `order_not_found`, or ProblemDetails for an id that is not a GUID */
  orderNotFound: json(
    'order_not_found (unknown order, or another store’s), or ProblemDetails when orderId is not a GUID',
    z.union([businessErrorSchema, problemDetailsSchema]),
  ),
  notFound: json('ProblemDetails: merchantId is not the credential’s store', problemDetailsSchema),
  conflict: json(
    'idempotency_key_reuse: the same Idempotency-Key with a different request',
    businessErrorSchema,
  ),
  invalidTransition: json(
    'invalid_transition: the action is not allowed in the order’s state',
    businessErrorSchema,
  ),
};
