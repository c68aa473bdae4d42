import { errors, type FieldErrors, HttpException } from '@od/errors';
import { type CredentialRow, findCredential } from '../db/credentials.ts';
import type { AuthDeps } from '../deps.ts';
import type { RuleError } from '../domain/rules.ts';

/** Admin error replies of the credential operations ({ error, message }). */
export const credentialNotFound = () => new HttpException(errors.credentialNotFound());
export const merchantNotFound = () => new HttpException(errors.merchantNotFound());
export const credentialRevoked = () => new HttpException(errors.credentialRevoked());
export const noWebhookUrl = () => new HttpException(errors.webhookUrlMissing());
export const noClientSecret = () => new HttpException(errors.noClientSecret());
const invalid = (message: string, fields?: FieldErrors) =>
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
