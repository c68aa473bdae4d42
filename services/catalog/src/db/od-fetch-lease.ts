import type { Prisma } from './catalog-db.ts';

export type Lease = { taken: true } | { taken: false; retryAfterSeconds: number };

/**
 * Takes the store's read lease (`fetch_until`) for `holdMs` when it is free, and marks the read
 * PROCESSING in the same statement. Conditional UPDATE: two replicas racing for one store serialise
 * on the row lock and the second finds the lease taken. Otherwise: seconds until it is free
 * (PostgreSQL's clock, at least 1).
 */
export async function takeFetchLease(prisma: Prisma, merchantId: string, holdMs: number): Promise<Lease> {
  const rows = await prisma.$queryRaw<{ taken: boolean; wait_ms: number | null }[]>`
    WITH claim AS (
      UPDATE od_merchant_source
         SET fetch_until = now() + ${holdMs} * interval '1 millisecond',
             read_status = 'PROCESSING', last_read = now(), more_info = NULL
       WHERE merchant_id = ${merchantId}::uuid AND (fetch_until IS NULL OR fetch_until <= now())
      RETURNING 1)
    SELECT EXISTS (SELECT 1 FROM claim) AS taken,
           (SELECT EXTRACT(EPOCH FROM (fetch_until - now())) * 1000
              FROM od_merchant_source WHERE merchant_id = ${merchantId}::uuid)::float8 AS wait_ms`;
  const r = rows[0];
  if (r?.taken) return { taken: true };
  return { taken: false, retryAfterSeconds: Math.max(1, Math.ceil((r?.wait_ms ?? 1000) / 1000)) };
}

/** The read is over: the lease becomes the cooldown (0 frees it at once). */
export async function endFetchLease(prisma: Prisma, merchantId: string, cooldownMs: number): Promise<void> {
  await prisma.$executeRaw`
    UPDATE od_merchant_source SET fetch_until = now() + ${cooldownMs} * interval '1 millisecond'
     WHERE merchant_id = ${merchantId}::uuid`;
}
