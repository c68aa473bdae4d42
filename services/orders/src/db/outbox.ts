/** Outbox upkeep of the relay leader (on its own connection). */
interface Queryable {
  query<R extends Record<string, unknown>>(
    text: string,
    values?: unknown[],
  ): Promise<{ rows: R[]; rowCount: number | null }>;
}

/**
 * Counts one failed publish of a row; at `maxAttempts` the row is set aside (no longer read by the
 * relay, never pruned). True when this call set it aside.
 */
export async function setAside(
  c: Queryable,
  id: number,
  error: string,
  maxAttempts: number,
): Promise<boolean> {
  const { rows } = await c.query<{ aside: boolean }>(
    `UPDATE order_outbox SET attempts = attempts + 1, last_error = left($2, 1000),
       set_aside_at = CASE WHEN attempts + 1 >= $3 THEN now() END
     WHERE id = $1 RETURNING set_aside_at IS NOT NULL AS aside`,
    [id, error, maxAttempts],
  );
  return rows[0]?.aside === true;
}

/** Deletes published rows older than `retentionMs`; unpublished and set-aside rows stay. */
export async function pruneOutbox(c: Queryable, retentionMs: number): Promise<number> {
  const { rowCount } = await c.query(
    `DELETE FROM order_outbox
     WHERE published_at IS NOT NULL AND published_at < now() - $1::bigint * interval '1 millisecond'`,
    [retentionMs],
  );
  return rowCount ?? 0;
}
