import type { KV } from '@nats-io/kv';
import type { CredentialRecord } from '@od/contracts';
import { errors, HttpException } from '@od/errors';
import type { Logger } from '@od/logger';
import type { Db } from './db/client.ts';
import { toRecord } from './db/credentials.ts';

/**
 * Puts the non-secret record in the credentials KV bucket; returns the KV revision of the write.
 * Called inside the database transaction: if NATS cannot take it, the change is rolled back and the
 * caller gets a retryable 503.
 */
export async function publishRecord(kv: KV, rec: CredentialRecord, traceId = ''): Promise<number> {
  try {
    return await kv.put(rec.clientId, JSON.stringify(rec));
  } catch {
    throw new HttpException(errors.unavailable(traceId));
  }
}

/**
 * Republishes every credential (rebuilds a lost or stale bucket). The table is locked in SHARE mode
 * meanwhile, so no change can be overwritten by an older copy.
 */
export async function republishAll(db: Db, kv: KV, log: Logger): Promise<number> {
  const count = await db.$transaction(
    async (tx) => {
      await tx.$executeRaw`LOCK TABLE credential IN SHARE MODE`;
      const rows = await tx.credential.findMany({ orderBy: { clientId: 'asc' } });
      for (let i = 0; i < rows.length; i += 100) {
        await Promise.all(rows.slice(i, i + 100).map((r) => publishRecord(kv, toRecord(r))));
      }
      return rows.length;
    },
    { timeout: 120_000, maxWait: 30_000 },
  );
  log.info({ count }, 'credentials republished');
  return count;
}
