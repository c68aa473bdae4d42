import { errors, type FieldErrors, HttpException } from '@od/errors';
import { type CredentialRow, findCredential } from '../db/credentials.ts';
import type { AuthDeps } from '../deps.ts';
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
export const noClientSecret = () =>
  new HttpException(errors.admin(404, 'no_client_secret', 'A credencial não guarda o segredo do cliente.'));
export const invalid = (message: string, fields?: FieldErrors) =>
  new HttpException(errors.adminValidation(message, fields));

export function ruleError(e: RuleError): HttpException {
  if (e.kind === 'revoked') return credentialRevoked();
  if (e.kind === 'no_webhook_url') return noWebhookUrl();
  return invalid(e.message, { [e.field]: [e.message] });
}

/** The credential a request names, or 404 `credential_not_found`. */
export async function namedCredential(deps: AuthDeps, clientId: string): Promise<CredentialRow> {
  const row = clientId ? await findCredential(deps.db, clientId) : null;
  if (!row) throw credentialNotFound();
  return row;
}

export const str = (x: unknown): string => (typeof x === 'string' ? x : '');
