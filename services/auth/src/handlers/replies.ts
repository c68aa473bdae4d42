import { errors, type FieldErrors, fieldErrorsFromIssues, HttpException } from '@od/errors';
import type { RuleError } from '../domain/rules.ts';

/** Admin error replies of the credential operations ({ error, message }). */
export const credentialNotFound = () =>
  new HttpException(errors.admin(404, 'credential_not_found', 'Credencial não encontrada.'));
export const merchantNotFound = () =>
  new HttpException(errors.admin(404, 'merchant_not_found', 'Loja não encontrada.'));
export const credentialRevoked = () =>
  new HttpException(
    errors.admin(409, 'credential_revoked', 'Credencial revogada: a revogação é permanente.'),
  );
export const noWebhookUrl = () =>
  new HttpException(
    errors.admin(409, 'webhook_url_missing', 'A credencial não tem URL de webhook configurada.'),
  );
export const invalid = (message: string, fields?: FieldErrors) =>
  new HttpException(errors.adminValidation(message, fields));

export function ruleError(e: RuleError): HttpException {
  if (e.kind === 'revoked') return credentialRevoked();
  if (e.kind === 'no_webhook_url') return noWebhookUrl();
  return invalid(e.message, { [e.field]: [e.message] });
}

/** Validates an RPC body with a zod schema; failures become the Admin API's 400. */
export function parseBody<T>(
  schema: {
    safeParse(
      x: unknown,
    ):
      | { success: true; data: T }
      | { success: false; error: { issues: ReadonlyArray<{ path: PropertyKey[]; message: string }> } };
  },
  body: unknown,
): T {
  const r = schema.safeParse(body ?? {});
  if (r.success) return r.data;
  throw invalid('Requisição inválida.', fieldErrorsFromIssues(r.error.issues));
}

export const str = (x: unknown): string => (typeof x === 'string' ? x : '');
