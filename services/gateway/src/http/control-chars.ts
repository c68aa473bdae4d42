import { CONTROL_CHARACTER_MESSAGE, findControlCharacter } from '@od/contracts';
import { errors, fieldErrorsFromIssues, type HttpError } from '@od/errors';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { familyOf, sendError } from './errors.ts';

type Path = (string | number)[];

function refusal(request: FastifyRequest, where: 'params' | 'query' | 'body', path: Path): HttpError {
  const family = familyOf(request);
  const name = Object.keys(fieldErrorsFromIssues([{ path, message: '' }]))[0];
  const message = `${name}: ${CONTROL_CHARACTER_MESSAGE}`;
  if (where === 'params')
    return family === 'admin' ? errors.adminNotFound('Recurso') : errors.notFound(request.id);
  if (family === 'token') return errors.tokenInvalidRequest(message);
  if (family === 'admin')
    return errors.adminValidation('Requisição inválida.', { [name]: [CONTROL_CHARACTER_MESSAGE] });
  return errors.validation({ [name]: [CONTROL_CHARACTER_MESSAGE] }, request.id);
}

/**
 * Refuses, before validation and before any service sees them, requests whose path parameters,
 * query or JSON body carry U+0000 or another refused control character (CONTROL_CHARACTERS in
 * @od/contracts): 404 for a path parameter (no such resource), 400 in the route family's form
 * otherwise. Runs after the bearer check (onRequest), so it never answers before authentication.
 * Raw-text bodies (order actions, Open Delivery flows) are checked by their op's schema in the service.
 */
export function refuseControlCharacters(app: FastifyInstance): void {
  app.addHook('preValidation', async (request: FastifyRequest, reply: FastifyReply) => {
    for (const where of ['params', 'query', 'body'] as const) {
      const path = findControlCharacter(request[where]);
      if (path) return sendError(reply, refusal(request, where, path));
    }
  });
}
