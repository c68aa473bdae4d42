import type { PoolClient } from 'pg';

/**
 * Runs `fn` in one transaction on one pooled connection: COMMIT on success, ROLLBACK on throw.
 * `begin`: the opening text, BEGIN plus statements without parameters (e.g. advisory locks) to save
 * their round trips.
 */
export async function withTx<T>(
  pool: { connect(): Promise<PoolClient> },
  fn: (c: PoolClient) => Promise<T>,
  begin = 'BEGIN',
): Promise<T> {
  const c = await pool.connect();
  try {
    await c.query(begin);
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
