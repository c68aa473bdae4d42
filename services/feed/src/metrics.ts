import type { Pool } from '@od/db';
import { gaugeSources } from '@od/telemetry';

/** Feed entries waiting for their integrator's acknowledgement, all credentials (partial index). */
export function registerFeedGauges(pool: Pool): () => void {
  return gaugeSources.feedPendingEvents(async () => {
    const { rows } = await pool.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM feed_entries WHERE acked_at IS NULL',
    );
    return [[{}, rows[0].n]];
  });
}
