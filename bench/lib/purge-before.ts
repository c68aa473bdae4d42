// The feed's retention purge as it was before it kept a cursor (main until 2026-11-25), for
// `bench:scale --purge-baseline`: both purges on the same backlog size in one run. Each batch deletes
// acknowledged entries, then events past the cutoff without entries, found by walking the old
// events from the oldest again (the retained ones included) on every batch.
import { type Pool, withTx } from '@od/db';
import { RETENTION_LOCK } from '../../services/feed/src/db/retention.ts';

export async function purgeBefore(pool: Pool, days: number, batch = 5000) {
  const cutoff = new Date(Date.now() - days * 86_400_000).toISOString();
  let entries = 0;
  let events = 0;
  for (;;) {
    const res = await withTx(pool, async (c) => {
      const l = await c.query<{ ok: boolean }>('SELECT pg_try_advisory_xact_lock($1::int, 0) AS ok', [
        RETENTION_LOCK,
      ]);
      if (!l.rows[0].ok) return null;
      const a = await c.query(
        `DELETE FROM feed_entries WHERE seq IN (
           SELECT seq FROM feed_entries WHERE acked_at IS NOT NULL AND acked_at < $1 LIMIT $2)`,
        [cutoff, batch],
      );
      const b = await c.query(
        `DELETE FROM events WHERE event_id IN (
           SELECT e.event_id FROM events e WHERE e.created_at < $1
             AND NOT EXISTS (SELECT 1 FROM feed_entries f WHERE f.event_id = e.event_id)
           LIMIT $2)`,
        [cutoff, batch],
      );
      return { a: a.rowCount ?? 0, b: b.rowCount ?? 0 };
    });
    if (!res) return { entries, events, skipped: true };
    entries += res.a;
    events += res.b;
    if (res.a < batch && res.b < batch) return { entries, events, skipped: false };
  }
}
