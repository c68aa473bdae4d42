import { type CREDENTIAL_OPS, isGuid, type OpHandler } from '@od/contracts';
import { listByMerchant, toRecord } from '../db/credentials.ts';
import type { AuthDeps } from '../deps.ts';

/**
 * credentials.list and internal.credentialsByMerchant: { merchantId } -> 200 CredentialRecord[]
 * (every status, oldest first; never a secret). An unknown store has no credentials.
 */
export function credentialsByMerchant(deps: AuthDeps): OpHandler<typeof CREDENTIAL_OPS.list> {
  return async (req) => {
    const merchantId = req.body.merchantId;
    if (!isGuid(merchantId)) return { status: 200, body: [] };
    const rows = await listByMerchant(deps.db, merchantId.toLowerCase());
    return { status: 200, body: rows.map(toRecord) };
  };
}
