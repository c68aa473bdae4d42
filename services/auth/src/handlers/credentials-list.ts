import type { RpcHandler } from '@od/bus';
import { isGuid } from '@od/contracts';
import { listByMerchant, toRecord } from '../db/credentials.ts';
import type { AuthDeps } from '../deps.ts';
import { str } from './replies.ts';

/**
 * credentials.list and internal.credentialsByMerchant: { merchantId } -> 200 CredentialRecord[]
 * (every status, oldest first; never a secret). An unknown store has no credentials.
 */
export function credentialsByMerchant(deps: AuthDeps): RpcHandler {
  return async (req) => {
    const merchantId = str((req.body as Record<string, unknown> | undefined)?.merchantId);
    if (!isGuid(merchantId)) return { status: 200, body: [] };
    const rows = await listByMerchant(deps.db, merchantId.toLowerCase());
    return { status: 200, body: rows.map(toRecord) };
  };
}
