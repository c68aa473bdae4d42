import { errors, type HttpError } from '@od/errors';
import type { FastifyInstance, FastifyRequest, FastifySchemaCompiler } from 'fastify';
import { validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';

// Bodies the gateway does not validate: the op's schema checks them once, in the service
// (docs/decisions.md, "Who checks a body"). Relayed admin routes, order actions, Open Delivery flows.

/** The raw text of a body the action routes read themselves (they accept any content type). */
export function bodyText(raw: unknown): string {
  return typeof raw === 'string' ? raw : raw instanceof Buffer ? raw.toString('utf8') : '';
}

/**
 * The JSON value of a raw-text body (the routes that take any content type parse it themselves,
 * then the op's schema checks it once in the service): blank text is no body when `optional`;
 * text that is not JSON is the 400 to answer.
 */
export function rawJson(
  request: FastifyRequest,
  optional: boolean,
): { value: unknown } | { refused: HttpError } {
  const text = bodyText(request.body);
  if (optional && text.trim() === '') return { value: undefined };
  try {
    return { value: JSON.parse(text) };
  } catch {
    return { refused: errors.validation({ $: ['O corpo não é um JSON válido.'] }, request.id) };
  }
}

/**
 * A scope whose routes take any body (or none) as raw text: the handler parses and checks it, so a
 * missing or mistyped content type never decides the answer. Path and query are validated as usual.
 */
export function rawBodyRoutes(sub: FastifyInstance) {
  sub.removeAllContentTypeParsers();
  sub.addContentTypeParser('*', { parseAs: 'string' }, (_req, body, done) => done(null, body));
  return sub.withTypeProvider<ZodTypeProvider>();
}
/** The validator of such a route: the body schema only documents it (OpenAPI). */
export const rawBodyValidator: FastifySchemaCompiler<unknown> = (route) =>
  route.httpPart === 'body'
    ? (data: unknown) => ({ value: data })
    : validatorCompiler(route as unknown as Parameters<typeof validatorCompiler>[0]);
