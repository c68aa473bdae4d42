import type { CATALOG_OPS, OpHandler } from '@od/contracts';
import type { Logger } from '@od/logger';
import { resealOdApiKeys } from '../db/od-source.ts';
import type { HandlerDeps } from './common.ts';

/**
 * admin.secrets.rotateKey {} -> 200 { activeKeyId, resealed, unreadable }: every point-of-sale api
 * key not under this replica's active key is sealed again (`odctl secrets rotate-key`, with auth's).
 */
export function secretsRotateKey(deps: HandlerDeps, log: Logger): OpHandler<typeof CATALOG_OPS.rotateKey> {
  return async (req) => {
    const { box } = deps.od;
    const r = await resealOdApiKeys(deps.db, box);
    log.info({ ...r, activeKeyId: box.activeId, traceId: req.traceId }, 'api keys re-encrypted');
    return { status: 200, body: { activeKeyId: box.activeId, ...r } };
  };
}
