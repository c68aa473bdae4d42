import type { PoolClient } from 'pg';

/** Runs `fn` in one transaction on one pooled connection: COMMIT on success, ROLLBACK on throw. */
export async function withTx<T>(
  pool: { connect(): Promise<PoolClient> },
  fn: (c: PoolClient) => Promise<T>,
): Promise<T> {
  const c = await pool.connect();
  try {
    await c.query('BEGIN');
    const out = await fn(c);
    await c.query('COMMIT');
    return out;
  } catch (e) {
    await c.query('ROLLBACK').catch(() => {});
    throw e;
  } finally {
    c.release();
  }
}
