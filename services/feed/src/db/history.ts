import type { Pool } from '@od/db';

/** Lower bound of the id tie-breaker on a first page (no cursor): every id sorts above it. */
const MIN_UUID = '00000000-0000-0000-0000-000000000000';
const ISO = `'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'`;

// One forward range scan of feed_entries_history_idx: the credential's entries, acknowledged or not,
// oldest first, after the keyset position. Held entries (predecessor not stored yet) wait, as in
// polling. The stored envelope text gets `acknowledgedAt` appended (the envelope is a JSON object).
const HISTORY_SQL = `SELECT f.event_id::text AS id, to_char(f.event_created_at AT TIME ZONE 'UTC', ${ISO}) AS at,
  left(e.envelope, -1) || ',"acknowledgedAt":' ||
    COALESCE('"' || to_char(f.acked_at AT TIME ZONE 'UTC', ${ISO}) || '"', 'null') || '}' AS j
FROM feed_entries f JOIN events e ON e.event_id = f.event_id
WHERE f.credential_id = $1 AND f.event_created_at >= $2 AND f.event_created_at < $3
  AND (f.event_created_at, f.event_id) > ($4, $5::uuid) AND NOT f.held
ORDER BY f.event_created_at, f.event_id
LIMIT $6`;

/** Up to `take` of the credential's entries in [from, to), strictly after `after`, oldest first. Reads only. */
export async function eventHistory(
  pool: Pool,
  q: { clientId: string; from: Date; to: Date; after?: { at: string; id: string }; take: number },
): Promise<{ id: string; at: string; j: string }[]> {
  const { rows } = await pool.query<{ id: string; at: string; j: string }>({
    name: 'feed_history',
    text: HISTORY_SQL,
    values: [
      q.clientId,
      q.from.toISOString(),
      q.to.toISOString(),
      q.after?.at ?? q.from.toISOString(),
      q.after?.id ?? MIN_UUID,
      q.take,
    ],
  });
  return rows;
}
