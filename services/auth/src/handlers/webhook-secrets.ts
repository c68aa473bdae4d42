import type { INTERNAL_OPS, OpHandler } from '@od/contracts';
import { validWebhookSecrets } from '../db/credentials.ts';
import type { AuthDeps } from '../deps.ts';
import { namedCredential } from './replies.ts';

/** internal.webhookSecrets { clientId } -> 200 { secrets: string[] } newest first | 404. */
export function webhookSecrets(deps: AuthDeps): OpHandler<typeof INTERNAL_OPS.webhookSecrets> {
  return async (req) => {
    const { clientId } = await namedCredential(deps, req.body.clientId);
    return { status: 200, body: { secrets: await validWebhookSecrets(deps.db, deps.box, clientId) } };
  };
}
