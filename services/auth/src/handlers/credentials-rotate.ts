import {
  type CREDENTIAL_OPS,
  type CredentialChange,
  type OpHandler,
  WEBHOOK_SECRET_OVERLAP_MS,
} from '@od/contracts';
import { rotateWebhookSecret, toRecord, withLockedCredential } from '../db/credentials.ts';
import type { AuthDeps } from '../deps.ts';
import { generateWebhookSecret } from '../domain/secrets.ts';
import { publishRecord } from '../publish.ts';
import { credentialNotFound, credentialRevoked, noWebhookUrl } from './replies.ts';

/**
 * credentials.rotateWebhookSecret { clientId } -> 200 CredentialChange with the new webhookSecret;
 * the previous secret stays valid for 24 hours (both are signed with meanwhile).
 */
export function credentialsRotate(deps: AuthDeps): OpHandler<typeof CREDENTIAL_OPS.rotateWebhookSecret> {
  return async (req) => {
    const clientId = req.body.clientId;
    const change = await withLockedCredential(deps.db, clientId, async (tx, row) => {
      if (row.status === 'REVOKED') throw credentialRevoked();
      if (!row.webhookUrl) throw noWebhookUrl();
      const webhookSecret = generateWebhookSecret();
      await rotateWebhookSecret(tx, deps.box, clientId, webhookSecret, WEBHOOK_SECRET_OVERLAP_MS);
      const updated = await tx.credential.update({ where: { clientId }, data: { updatedAt: new Date() } });
      const credential = toRecord(updated);
      const revision = await publishRecord(deps.kv, credential, req.traceId);
      return { credential, revision, webhookSecret } satisfies CredentialChange;
    });
    if (!change) throw credentialNotFound();
    return { status: 200, body: change };
  };
}
