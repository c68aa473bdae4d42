import type { PoolClient } from '@od/db';

/**
 * Idempotency-Key records in PostgreSQL (table `idempotency_keys`): (scope, key), the request's
 * fingerprint and the first answer. Written in the transaction of the action, so the record exists
 * exactly when the action committed. Records live 24 hours (SPEC); an older one is replaced.
 */

export interface IdemKey {
  /** `credential:<client_id>` on public routes, `admin` on the admin API */
  scope: string;
  key: string;
  fingerprint: string;
}

export interface IdemRecord {
  fingerprint: string;
  status: number;
  headers: Record<string, string>;
  body: string;
}

const IDEMPOTENCY_TTL = '24 hours';

export async function findIdem(c: PoolClient, k: IdemKey): Promise<IdemRecord | undefined> {
  const { rows } = await c.query<IdemRecord>({
    name: 'orders.idem.find',
    text: `SELECT fingerprint, status, headers, body FROM idempotency_keys
           WHERE scope = $1 AND key = $2 AND created_at > now() - interval '${IDEMPOTENCY_TTL}'`,
    values: [k.scope, k.key],
  });
  return rows[0];
}

/**
 * Records the first answer. False when another transaction recorded this key first (it waited for
 * that one to commit): the caller rolls back and replays that answer instead.
 */
export async function recordIdem(
  c: PoolClient,
  k: IdemKey,
  a: { status: number; headers: Record<string, string>; body: string },
): Promise<boolean> {
  const { rowCount } = await c.query({
    name: 'orders.idem.record',
    text: `INSERT INTO idempotency_keys AS k (scope, key, fingerprint, status, headers, body)
           VALUES ($1, $2, $3, $4, $5::jsonb, $6)
           ON CONFLICT (scope, key) DO UPDATE
             SET fingerprint = EXCLUDED.fingerprint, status = EXCLUDED.status, headers = EXCLUDED.headers,
                 body = EXCLUDED.body, created_at = now()
             WHERE k.created_at <= now() - interval '${IDEMPOTENCY_TTL}'`,
    values: [k.scope, k.key, k.fingerprint, a.status, JSON.stringify(a.headers), a.body],
  });
  return rowCount === 1;
}

/** Deletes expired records (the relay leader calls it with the outbox pruning). */
export async function pruneIdem(c: { query: PoolClient['query'] }): Promise<number> {
  const { rowCount } = await c.query(
    `DELETE FROM idempotency_keys WHERE created_at <= now() - interval '${IDEMPOTENCY_TTL}'`,
  );
  return rowCount ?? 0;
}
