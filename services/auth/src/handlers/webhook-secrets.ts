import type { INTERNAL_OPS, OpHandler } from '@od/contracts';
import { findCredential, validWebhookSecrets } from '../db/credentials.ts';
import type { AuthDeps } from '../deps.ts';

/** internal.webhookSecrets { clientId } -> 200 { secrets: string[] } newest first | 404. */
export function webhookSecrets(deps: AuthDeps): OpHandler<typeof INTERNAL_OPS.webhookSecrets> {
  return async (req) => {
    const clientId = req.body.clientId;
    const row = clientId ? await findCredential(deps.db, clientId) : null;
    if (!row)
      return { status: 404, body: { error: 'credential_not_found', message: 'Credencial não encontrada.' } };
    return { status: 200, body: { secrets: await validWebhookSecrets(deps.db, deps.box, clientId) } };
  };
}
