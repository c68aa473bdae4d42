import type { Pool } from '@od/db';
import { gaugeSources } from '@od/telemetry';

/**
 * Feed entries waiting for their integrator's acknowledgement, all credentials, and events held for
 * their order's earlier event. Both counts read only partial indexes (pending and not held; held).
 */
export function registerFeedGauges(pool: Pool): () => void {
  const pending = gaugeSources.feedPendingEvents(async () => {
    const { rows } = await pool.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM feed_entries WHERE acked_at IS NULL AND NOT held',
    );
    return [[{}, rows[0].n]];
  });
  const held = gaugeSources.feedHeldEvents(async () => {
    const { rows } = await pool.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM events WHERE held_since IS NOT NULL',
    );
    return [[{}, rows[0].n]];
  });
  return () => {
    pending();
    held();
  };
}
