import { setTimeout as sleep } from 'node:timers/promises';
import { type Pool, withTx } from '@od/db';
import type { PoolClient } from 'pg';

/** Advisory lock class of the retention job. */
export const RETENTION_LOCK = 0x0feee;

// Acknowledged entries past the cutoff, oldest acknowledgment first from where the previous batch
// stopped (dead index entries of earlier batches are not walked again), by primary key (`= ANY`:
// `IN (subquery)` can turn into a hash join over the whole table); the events they leave
// without any entry go in the same transaction, found by id, never by scanning old events.
const PURGE_ENTRIES_SQL = `WITH gone AS (
  DELETE FROM feed_entries WHERE seq = ANY(ARRAY(
    SELECT seq FROM feed_entries WHERE acked_at IS NOT NULL AND acked_at >= $1 AND acked_at < $2
    ORDER BY acked_at LIMIT $3))
  RETURNING event_id, acked_at
)
SELECT count(*)::int AS n, array_agg(DISTINCT event_id) AS ids, max(acked_at) AS last FROM gone`;
const PURGE_THEIR_EVENTS_SQL = `DELETE FROM events e WHERE e.event_id = ANY($1::uuid[]) AND e.created_at < $2
  AND NOT EXISTS (SELECT 1 FROM feed_entries f WHERE f.event_id = e.event_id)`;

// Events that never had an entry (a store without credentials) or lost theirs to a revocation are
// found by the sweep: it walks old events once, in (created_at, event_id) order from the cursor
// kept in `retention_cursor`, deletes those without entries and moves the cursor past the batch.
// An event it passes keeps an entry, and goes with its last entry (above) or its revocation
// (`deleteRevokedEntries`): retained events (never acknowledged, kept by SPEC) are walked once ever.
const LOCK_CURSOR_SQL = `SELECT 1 FROM retention_cursor WHERE name = 'events' FOR UPDATE`;
// The cursor as subqueries (parameters of the plan), not a join: the range scan of
// events_created_at_idx then comes out ordered and stops after the batch (a join sorts the range).
const SWEEP_SQL = `WITH scanned AS (
  SELECT e.event_id, e.created_at FROM events e
  WHERE e.created_at >= (SELECT created_at FROM retention_cursor WHERE name = 'events') AND e.created_at < $1
    AND (e.created_at, e.event_id) > (SELECT created_at, event_id FROM retention_cursor WHERE name = 'events')
  ORDER BY e.created_at, e.event_id LIMIT $2
), gone AS (
  DELETE FROM events e
  WHERE e.event_id = ANY(ARRAY(SELECT event_id FROM scanned))
    AND NOT EXISTS (SELECT 1 FROM feed_entries f WHERE f.event_id = e.event_id)
  RETURNING 1
), last AS (
  SELECT created_at, event_id FROM scanned ORDER BY created_at DESC, event_id DESC LIMIT 1
), moved AS (
  UPDATE retention_cursor r SET created_at = l.created_at, event_id = l.event_id FROM last l
  WHERE r.name = 'events'
)
SELECT (SELECT count(*) FROM scanned)::int AS scanned, (SELECT count(*) FROM gone)::int AS deleted`;

/**
 * One transaction of the job under the try-lock (null when another replica holds it), holding the
 * cursor row: a revocation (`deleteRevokedEntries`) runs wholly before or after it, so an event
 * losing its last entries to both at once is seen without entries by one of them. Then a rest of
 * `rest` times the batch's duration: flat out, a backlog's deletes took the database's CPU and disk
 * from polling (bench:scale: poll p50 26 -> 319 ms beside it on 2 cores).
 */
async function underLock<T>(pool: Pool, rest: number, fn: (c: PoolClient) => Promise<T>): Promise<T | null> {
  const t0 = performance.now();
  const out = await withTx(pool, async (c) => {
    const l = await c.query<{ ok: boolean }>('SELECT pg_try_advisory_xact_lock($1::int, 0) AS ok', [
      RETENTION_LOCK,
    ]);
    if (!l.rows[0].ok) return null;
    await c.query(LOCK_CURSOR_SQL);
    return fn(c);
  });
  if (out && rest > 0) await sleep((performance.now() - t0) * rest);
  return out;
}

/**
 * Retention (SPEC: acknowledged events deleted after 30 days, unacknowledged kept forever).
 * Safe on every replica: each batch runs under a try-lock, a replica that does not get it skips.
 * Deletes acknowledged entries older than `days` with the events they were the last entries of,
 * then sweeps old events without entries from the stored cursor. Batched so no statement holds
 * locks for long; no batch reads what an earlier one already passed; after each batch it rests
 * `rest` (default 1) times as long as the batch took.
 */
export async function runRetention(
  pool: Pool,
  opts: { days: number; batch?: number; now?: Date; rest?: number },
): Promise<{ entries: number; events: number; skipped: boolean }> {
  const batch = opts.batch ?? 5000;
  const rest = opts.rest ?? 1;
  const cutoff = new Date((opts.now ?? new Date()).getTime() - opts.days * 86_400_000).toISOString();
  let entries = 0;
  let events = 0;
  let from: unknown = '-infinity';
  for (;;) {
    const res = await underLock(pool, rest, async (c) => {
      const a = await c.query<{ n: number; ids: string[] | null; last: unknown }>(PURGE_ENTRIES_SQL, [
        from,
        cutoff,
        batch,
      ]);
      const { n, ids, last } = a.rows[0];
      if (!n || !ids) return { entries: 0, events: 0, last: from };
      const b = await c.query(PURGE_THEIR_EVENTS_SQL, [ids, cutoff]);
      return { entries: n, events: b.rowCount ?? 0, last };
    });
    if (!res) return { entries, events, skipped: true };
    entries += res.entries;
    events += res.events;
    from = res.last;
    if (res.entries < batch) break;
  }
  for (;;) {
    const res = await underLock(pool, rest, async (c) => {
      const r = await c.query<{ scanned: number; deleted: number }>(SWEEP_SQL, [cutoff, batch]);
      return r.rows[0];
    });
    if (!res) return { entries, events, skipped: true };
    events += res.deleted;
    if (res.scanned < batch) return { entries, events, skipped: false };
  }
}

// The revoked credential's entries go at once; an event the sweep already passed (behind the
// cursor) that this leaves without entries goes too, since nothing else would find it. The cursor
// row is locked first: a batch of the job either committed before (its cursor is read here) or
// waits and sees these entries gone.
const DELETE_REVOKED_SQL = `WITH gone AS (
  DELETE FROM feed_entries WHERE credential_id = $1 RETURNING event_id
), orphans AS (
  DELETE FROM events e
  WHERE e.event_id = ANY(ARRAY(SELECT event_id FROM gone))
    AND (e.created_at, e.event_id) <= (SELECT created_at, event_id FROM retention_cursor WHERE name = 'events')
    AND NOT EXISTS (SELECT 1 FROM feed_entries f WHERE f.event_id = e.event_id AND f.credential_id <> $1)
)
SELECT count(*)::int AS n FROM gone`;

/** Deletes a revoked credential's entries (in the caller's transaction); returns how many. */
export async function deleteRevokedEntries(c: PoolClient, clientId: string): Promise<number> {
  await c.query(`SELECT 1 FROM retention_cursor WHERE name = 'events' FOR SHARE`);
  const r = await c.query<{ n: number }>(DELETE_REVOKED_SQL, [clientId]);
  return r.rows[0].n;
}
