import type { Pool } from '@od/db';
import { gaugeSources } from '@od/telemetry';

/** Outbox backlog and the age of its oldest row, read at scrape time (partial index on unpublished). */
export function registerOutboxGauges(pool: Pool): () => void {
  // both gauges of one scrape share one query
  let pending: Promise<{ n: number; age: number }> | undefined;
  const read = () => {
    pending ??= query().finally(() => setTimeout(() => (pending = undefined), 500).unref());
    return pending;
  };
  const query = async () =>
    (
      await pool.query<{ n: number; age: number }>(
        `SELECT count(*)::int AS n, coalesce(extract(epoch FROM now() - min(created_at)), 0)::float8 AS age
         FROM order_outbox WHERE published_at IS NULL`,
      )
    ).rows[0];
  const offBacklog = gaugeSources.outboxBacklog(async () => [[{}, (await read()).n]]);
  const offOldest = gaugeSources.outboxOldest(async () => [[{}, (await read()).age]]);
  return () => {
    offBacklog();
    offOldest();
  };
}
