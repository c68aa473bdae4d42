import type { CREDENTIAL_OPS, CredentialChange, OpHandler } from '@od/contracts';
import { toRecord, withLockedCredential } from '../db/credentials.ts';
import type { AuthDeps } from '../deps.ts';
import { isRuleError, type Lifecycle, nextStatus } from '../domain/rules.ts';
import { publishRecord } from '../publish.ts';
import { credentialNotFound, ruleError } from './replies.ts';

/**
 * credentials.pause | resume | revoke { clientId } -> 200 CredentialChange. The record is published
 * while the row is locked; the reply's revision lets the gateway wait until every replica sees it.
 */
export function credentialsLifecycle(
  deps: AuthDeps,
  action: Lifecycle,
): OpHandler<typeof CREDENTIAL_OPS.pause> {
  return async (req) => {
    const clientId = req.body.clientId;
    const change = await withLockedCredential(deps.db, clientId, async (tx, row) => {
      const status = nextStatus(row.status as 'ACTIVE', action);
      if (isRuleError(status)) throw ruleError(status);
      const updated =
        status === row.status
          ? row
          : await tx.credential.update({ where: { clientId }, data: { status, updatedAt: new Date() } });
      const credential = toRecord(updated);
      // republished even when unchanged: the bucket is re-asserted and a fresh revision is returned
      const revision = await publishRecord(deps.kv, credential, req.traceId);
      return { credential, revision } satisfies CredentialChange;
    });
    if (!change) throw credentialNotFound();
    deps.log.info({ clientId, action, traceId: req.traceId }, 'credential lifecycle');
    return { status: 200, body: change };
  };
}
