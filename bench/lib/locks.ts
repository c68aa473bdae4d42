// What a job locks while it runs, sampled from pg_locks: the relation and advisory locks held by the
// connections named `applicationName`, and every other backend seen waiting on one of them.
import type pg from 'pg';

export interface LockSample {
  /** distinct `relation mode` (or `advisory mode`) held by the job's connections */
  held: string[];
  samples: number;
  /** samples in which another backend waited for a lock the job held */
  blockedSamples: number;
  /** what those backends were running (first 80 characters, distinct) */
  blockedQueries: string[];
}

export function sampleLocks(db: pg.Client, applicationName: string, everyMs = 100) {
  const held = new Set<string>();
  const blockedQueries = new Set<string>();
  let samples = 0;
  let blockedSamples = 0;
  let running = true;
  const loop = (async () => {
    while (running) {
      const l = await db.query<{ what: string }>(
        `SELECT DISTINCT coalesce(l.relation::regclass::text, l.locktype) || ' ' || l.mode AS what
         FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
         WHERE a.application_name = $1 AND l.granted AND l.locktype IN ('relation', 'advisory', 'tuple')`,
        [applicationName],
      );
      for (const r of l.rows) held.add(r.what);
      const b = await db.query<{ q: string }>(
        `SELECT left(w.query, 80) AS q FROM pg_stat_activity w
         WHERE w.application_name <> $1 AND EXISTS (
           SELECT 1 FROM pg_stat_activity j WHERE j.application_name = $1 AND j.pid = ANY(pg_blocking_pids(w.pid)))`,
        [applicationName],
      );
      samples++;
      if (b.rows.length) blockedSamples++;
      for (const r of b.rows) blockedQueries.add(r.q);
      await new Promise((r) => setTimeout(r, everyMs));
    }
  })();
  return async (): Promise<LockSample> => {
    running = false;
    await loop;
    return { held: [...held].sort(), samples, blockedSamples, blockedQueries: [...blockedQueries] };
  };
}
