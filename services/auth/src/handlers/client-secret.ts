import type { INTERNAL_OPS, OpHandler } from '@od/contracts';
import { openClientSecret } from '../db/credentials.ts';
import type { AuthDeps } from '../deps.ts';
import { namedCredential, noClientSecret } from './replies.ts';

/**
 * internal.clientSecret { clientId } -> 200 { clientSecret } | 404: the client secret of an
 * OPEN_DELIVERY credential, which signs the standard's `newEvent` webhook (`X-App-Signature`). Only
 * the webhook sender may call it (catalogue callers + NATS permissions). 404 `no_client_secret` for
 * SPEC credentials and for OPEN_DELIVERY ones created before the secret was kept. Never logged.
 */
export function clientSecret(deps: AuthDeps): OpHandler<typeof INTERNAL_OPS.clientSecret> {
  return async (req) => {
    const row = await namedCredential(deps, req.body.clientId);
    const secret = row.apiProfile === 'OPEN_DELIVERY' ? openClientSecret(deps.box, row) : null;
    if (!secret) throw noClientSecret();
    return { status: 200, body: { clientSecret: secret } };
  };
}
