import type { RpcHandler } from '@od/bus';
import { findCredential, validWebhookSecrets } from '../db/credentials.ts';
import type { AuthDeps } from '../deps.ts';
import { str } from './replies.ts';

/** internal.webhookSecrets { clientId } -> 200 { secrets: string[] } newest first | 404. */
export function webhookSecrets(deps: AuthDeps): RpcHandler {
  return async (req) => {
    const clientId = str((req.body as Record<string, unknown> | undefined)?.clientId);
    const row = clientId ? await findCredential(deps.db, clientId) : null;
    if (!row)
      return { status: 404, body: { error: 'credential_not_found', message: 'Credencial não encontrada.' } };
    return { status: 200, body: { secrets: await validWebhookSecrets(deps.db, clientId) } };
  };
}
