import {
  CLIENT_ID_PATTERN,
  type OpHandler,
  type TOKEN_ISSUE_OP,
  TOKEN_REFUSAL_HEADER,
  TOKEN_TTL_SECONDS,
  type TokenRefusal,
  type TokenResponse,
} from '@od/contracts';
import { errors } from '@od/errors';
import { createSigner } from 'fast-jwt';
import { findCredential } from '../db/credentials.ts';
import type { AuthDeps } from '../deps.ts';
import { verifySecret } from '../domain/secrets.ts';

/** 401 invalid_client, with the reason for the gateway's failure limit in an RPC header. */
const refused = (why: TokenRefusal) => ({
  ...errors.invalidClient(),
  headers: { [TOKEN_REFUSAL_HEADER]: why },
});

/**
 * token.issue { clientId, clientSecret } -> 200 token response | 401 invalid_client.
 * Unknown client, wrong secret, paused or revoked answer the same, after the same scrypt work.
 */
export function tokenIssue(deps: AuthDeps): OpHandler<typeof TOKEN_ISSUE_OP> {
  const sign = createSigner({
    key: deps.config.JWT_SECRET,
    algorithm: 'HS256',
    expiresIn: TOKEN_TTL_SECONDS * 1000,
  });
  return async (req) => {
    const { clientId, clientSecret } = req.body;
    const row = CLIENT_ID_PATTERN.test(clientId) ? await findCredential(deps.db, clientId) : null;
    const ok = await verifySecret(clientSecret, row?.secretHash);
    if (!ok || !row || row.status !== 'ACTIVE')
      return refused(!row ? 'unknown_client' : !ok ? 'wrong_secret' : 'inactive');
    const scope = row.scopes.join(' ');
    const token = sign({ merchant_id: row.merchantId, client_id: row.clientId, scope });
    const out: TokenResponse = {
      access_token: token,
      accessToken: token,
      token_type: 'bearer',
      tokenType: 'bearer',
      expires_in: TOKEN_TTL_SECONDS,
      expiresIn: TOKEN_TTL_SECONDS,
      scope,
    };
    return { status: 200, body: out };
  };
}
