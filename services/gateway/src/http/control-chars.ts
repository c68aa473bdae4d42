import { CONTROL_CHARACTER_MESSAGE, findControlCharacter } from '@od/contracts';
import { errors, fieldErrorsFromIssues, type HttpError } from '@od/errors';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { familyOf, sendError } from './errors.ts';

type Path = (string | number)[];

function refusal(request: FastifyRequest, where: 'params' | 'query', path: Path): HttpError {
  if (where === 'params')
    return familyOf(request) === 'admin' ? errors.adminNotFound('Recurso') : errors.notFound(request.id);
  const name = Object.keys(fieldErrorsFromIssues([{ path, message: '' }]))[0];
  const family = familyOf(request);
  if (family === 'token') return errors.tokenInvalidRequest(`${name}: ${CONTROL_CHARACTER_MESSAGE}`);
  if (family === 'admin')
    return errors.adminValidation('Requisição inválida.', { [name]: [CONTROL_CHARACTER_MESSAGE] });
  return errors.validation({ [name]: [CONTROL_CHARACTER_MESSAGE] }, request.id);
}

/**
 * Refuses, before validation and before any service sees them, requests whose path parameters or
 * query carry U+0000 or another refused control character (CONTROL_CHARACTERS in @od/contracts):
 * 404 for a path parameter (no such resource), 400 in the route family's form for the query. Runs
 * after the bearer check (onRequest), so it never answers before authentication.
 * Bodies are checked once, by their schemas (`text()`, and `refuseControlCharacters` where a body
 * holds free-form JSON), the op's when the service serves it; the token endpoint's fields by
 * readTokenRequest (docs/decisions.md, "Who checks a body").
 */
export function refuseControlCharacters(app: FastifyInstance): void {
  // a callback hook, not an async one: no promise per request
  app.addHook('preValidation', (request: FastifyRequest, reply: FastifyReply, done: () => void) => {
    // an answer instead of done(); never returned (a reply is thenable: fastify would await it)
    const inParams = findControlCharacter(request.params);
    const inQuery = inParams ? undefined : findControlCharacter(request.query);
    if (inParams) sendError(reply, refusal(request, 'params', inParams));
    else if (inQuery) sendError(reply, refusal(request, 'query', inQuery));
    else done();
  });
}
