import type { CREDENTIAL_OPS, CredentialChange, OpHandler } from '@od/contracts';
import { replaceWebhookSecrets, toRecord, withLockedCredential } from '../db/credentials.ts';
import type { AuthDeps } from '../deps.ts';
import { applyUpdate, isRuleError } from '../domain/rules.ts';
import { generateWebhookSecret } from '../domain/secrets.ts';
import { publishRecord } from '../publish.ts';
import { credentialNotFound, ruleError } from './replies.ts';

/**
 * credentials.update { clientId, body } -> 200 CredentialChange. Saving `webhookUrl` drops the old
 * webhook secrets and returns a new one (`webhookSecret`). Scopes are not editable.
 */
export function credentialsUpdate(deps: AuthDeps): OpHandler<typeof CREDENTIAL_OPS.update> {
  return async (req) => {
    const payload = req.body;
    const clientId = payload.clientId;
    const patch = payload.body;
    const change = await withLockedCredential(deps.db, clientId, async (tx, row) => {
      const r = applyUpdate(
        row.status as 'ACTIVE',
        {
          name: row.name,
          deliveryMode: row.deliveryMode as 'POLLING',
          webhookUrl: row.webhookUrl,
          includeMarketplaceOrders: row.includeMarketplaceOrders,
        },
        patch,
      );
      if (isRuleError(r)) throw ruleError(r);
      const updated = await tx.credential.update({
        where: { clientId },
        data: { ...r.next, updatedAt: new Date() },
      });
      let webhookSecret: string | undefined;
      if (r.urlSaved) {
        webhookSecret = generateWebhookSecret();
        await replaceWebhookSecrets(tx, deps.box, clientId, webhookSecret);
      } else if (r.urlRemoved) {
        await replaceWebhookSecrets(tx, deps.box, clientId, null);
      }
      const credential = toRecord(updated);
      const revision = await publishRecord(deps.kv, credential, req.traceId);
      const out: CredentialChange = { credential, revision };
      if (webhookSecret) out.webhookSecret = webhookSecret;
      return out;
    });
    if (!change) throw credentialNotFound();
    return { status: 200, body: change };
  };
}
