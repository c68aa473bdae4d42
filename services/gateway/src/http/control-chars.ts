import { CONTROL_CHARACTER_MESSAGE, CONTROL_CHARACTERS } from '@od/contracts';
import { errors, fieldErrorsFromIssues, type HttpError } from '@od/errors';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { familyOf, sendError } from './errors.ts';

type Path = (string | number)[];

/**
 * Path of the first string (object key or value) holding a refused control character, anywhere in
 * a parsed JSON value, a query object or a params object; undefined when there is none.
 * Iterative: a deeply nested body cannot exhaust the stack.
 */
export function findControlCharacter(value: unknown): Path | undefined {
  const stack: [unknown, Path][] = [[value, []]];
  while (stack.length > 0) {
    const [v, path] = stack.pop() as [unknown, Path];
    if (typeof v === 'string') {
      if (CONTROL_CHARACTERS.test(v)) return path;
    } else if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push([v[i], [...path, i]]);
    } else if (v !== null && typeof v === 'object') {
      for (const [k, child] of Object.entries(v)) {
        if (CONTROL_CHARACTERS.test(k)) return [...path, k];
        stack.push([child, [...path, k]]);
      }
    }
  }
  return undefined;
}

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
 * Raw-text bodies (order actions) are checked by their route after parsing.
 */
export function refuseControlCharacters(app: FastifyInstance): void {
  app.addHook('preValidation', async (request: FastifyRequest, reply: FastifyReply) => {
    for (const where of ['params', 'query', 'body'] as const) {
      const path = findControlCharacter(request[where]);
      if (path) return sendError(reply, refusal(request, where, path));
    }
  });
}
