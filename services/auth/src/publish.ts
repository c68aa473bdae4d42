import type { KV } from '@nats-io/kv';
import type { CredentialRecord } from '@od/contracts';
import { type Pool, withTx } from '@od/db';
import { errors, HttpException } from '@od/errors';
import type { Logger } from '@od/logger';
import { type RecordColumns, toRecord } from './db/credentials.ts';

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
 * meanwhile, so no change can be overwritten by an older copy. Plain SQL on the pool, not Prisma:
 * it runs at every start, and Prisma's query compiler (~10 MB resident) would stay loaded in a
 * replica that may never need it.
 */
export async function republishAll(pool: Pool, kv: KV, log: Logger): Promise<number> {
  const count = await withTx(
    pool,
    async (c) => {
      const { rows } = await c.query<RecordColumns>(
        `SELECT client_id AS "clientId", merchant_id::text AS "merchantId", name, scopes, status,
                delivery_mode AS "deliveryMode", webhook_url AS "webhookUrl",
                include_marketplace_orders AS "includeMarketplaceOrders", api_profile AS "apiProfile",
                created_at AS "createdAt", updated_at AS "updatedAt"
         FROM credential ORDER BY client_id`,
      );
      for (let i = 0; i < rows.length; i += 100) {
        await Promise.all(rows.slice(i, i + 100).map((r) => publishRecord(kv, toRecord(r))));
      }
      return rows.length;
    },
    'BEGIN; LOCK TABLE credential IN SHARE MODE',
  );
  log.info({ count }, 'credentials republished');
  return count;
}
