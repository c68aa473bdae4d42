import type { OpHandler, SECRETS_OPS } from '@od/contracts';
import { resealSecrets } from '../db/secrets-at-rest.ts';
import type { AuthDeps } from '../deps.ts';

/**
 * admin.secrets.rotateKey {} -> 200 { activeKeyId, resealed, remaining, unreadable }: re-encrypts
 * every webhook secret not under this replica's active key (`odctl secrets rotate-key`).
 * `unreadable` = ids of rows that do not open (key missing from SECRETS_KEYS, or altered); other
 * `remaining` rows were written meanwhile by a replica with another active key: run it again once
 * every replica has the same SECRETS_ACTIVE_KEY.
 */
export function secretsRotateKey(deps: AuthDeps): OpHandler<typeof SECRETS_OPS.rotateKey> {
  return async (req) => {
    const r = await resealSecrets(deps.pool, deps.box, 'all');
    const log = r.unreadable.length ? deps.log.error.bind(deps.log) : deps.log.info.bind(deps.log);
    log({ ...r, activeKeyId: deps.box.activeId, traceId: req.traceId }, 'secrets at rest re-encrypted');
    return { status: 200, body: { activeKeyId: deps.box.activeId, ...r } };
  };
}
