import {
  CLIENT_ID_PATTERN,
  type OpHandler,
  type RPC,
  TOKEN_REFUSAL_HEADER,
  TOKEN_TTL_SECONDS,
  type TokenRefusal,
  type TokenResponse,
} from '@od/contracts';
import { errors } from '@od/errors';
import { createSigner } from 'fast-jwt';
import { findCredential } from '../db/credentials.ts';
import type { AuthDeps } from '../deps.ts';
import { hashClientSecret, isLegacyHash, verifyClientSecret } from '../domain/secrets.ts';
import { Busy, workLimit } from '../domain/work-limit.ts';

/** 401 invalid_client, with the reason for the gateway's failure limit in an RPC header. */
const refused = (why: TokenRefusal) => ({
  ...errors.invalidClient(),
  headers: { [TOKEN_REFUSAL_HEADER]: why },
});

/**
 * Bounds per auth replica. Token work (a lookup on the pool + an HMAC) runs 32 at once with 256
 * waiting; legacy scrypt checks (16 MiB, tens of ms on the libuv pool) 1 at a time with 8 waiting.
 * Beyond that the answer is 503 temporarily_unavailable + Retry-After at once: a flood cannot
 * queue every other credential's renewal behind it.
 */
const TOKEN_WORK = { active: 32, queued: 256 } as const;
export const SCRYPT_WORK = { active: 1, queued: 8 } as const;

/**
 * token.issue { clientId, clientSecret } -> 200 token response | 401 invalid_client | 503 busy.
 * Unknown client, wrong secret, paused or revoked answer the same. A legacy scrypt hash is replaced
 * by the HMAC form after a successful check.
 */
export function tokenIssue(deps: AuthDeps): OpHandler<typeof RPC.auth.tokenIssue> {
  const sign = createSigner({
    key: deps.config.JWT_SECRET,
    algorithm: 'HS256',
    expiresIn: TOKEN_TTL_SECONDS * 1000,
  });
  const work = workLimit(TOKEN_WORK.active, TOKEN_WORK.queued);
  const scrypt = workLimit(SCRYPT_WORK.active, SCRYPT_WORK.queued);
  const key = deps.config.CLIENT_SECRET_KEY;

  const issue = async (clientId: string, clientSecret: string) => {
    const row = CLIENT_ID_PATTERN.test(clientId) ? await findCredential(deps.db, clientId) : null;
    const ok = await verifyClientSecret(clientSecret, row?.secretHash, key, (run) => scrypt.run(run));
    if (!ok || !row || row.status !== 'ACTIVE')
      return refused(!row ? 'unknown_client' : !ok ? 'wrong_secret' : 'inactive');
    if (isLegacyHash(row.secretHash)) {
      await deps.db.credential
        .updateMany({
          where: { clientId, secretHash: row.secretHash },
          data: { secretHash: hashClientSecret(clientSecret, key) },
        })
        .catch((err) => deps.log.warn({ err, clientId }, 'client secret rehash failed'));
    }
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

  return async (req) => {
    const { clientId, clientSecret } = req.body;
    try {
      return await work.run(() => issue(clientId, clientSecret));
    } catch (e) {
      if (!(e instanceof Busy)) throw e;
      deps.log.warn({ load: work.load(), traceId: req.traceId }, 'token work full: answered 503');
      return errors.tokenBusy();
    }
  };
}
