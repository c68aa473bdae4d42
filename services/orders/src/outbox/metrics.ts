import type { Pool } from '@od/db';
import { gaugeSources } from '@od/telemetry';

interface OutboxState {
  n: number;
  age: number;
  setAside: number;
}

/**
 * Outbox backlog (rows waiting to be published, set-aside rows excluded: they wait for an operator,
 * not for the relay), the age of the oldest, and the set-aside rows, read at scrape time.
 */
export function registerOutboxGauges(pool: Pool): () => void {
  // the gauges of one scrape share one query
  let pending: Promise<OutboxState> | undefined;
  const read = () => {
    pending ??= query().finally(() => setTimeout(() => (pending = undefined), 500).unref());
    return pending;
  };
  const query = async () =>
    (
      await pool.query<OutboxState>(
        `SELECT count(*) FILTER (WHERE set_aside_at IS NULL)::int AS n,
           coalesce(extract(epoch FROM now() - min(created_at) FILTER (WHERE set_aside_at IS NULL)), 0)::float8 AS age,
           count(*) FILTER (WHERE set_aside_at IS NOT NULL)::int AS "setAside"
         FROM order_outbox WHERE published_at IS NULL`,
      )
    ).rows[0];
  const off = [
    gaugeSources.outboxBacklog(async () => [[{}, (await read()).n]]),
    gaugeSources.outboxOldest(async () => [[{}, (await read()).age]]),
    gaugeSources.outboxSetAside(async () => [[{}, (await read()).setAside]]),
  ];
  return () => {
    for (const f of off) f();
  };
}
