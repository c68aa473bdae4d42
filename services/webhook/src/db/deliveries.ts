import type { Pool, PoolClient } from '@od/db';
import { WEBHOOK_DEACTIVATE_AFTER } from '@od/contracts';
import type { Target } from '../domain/targets.ts';

/** Hot-path SQL of the webhook service (intake, claim, completion), through the service's pg pool. */

export interface IntakeEvent {
  eventId: string;
  merchantId: string;
  channel: string;
  eventType: string;
  body: string;
  createdAt: string;
}

/**
 * Stores the event and its deliveries in one statement (atomic, idempotent by event id and by
 * (event id, client id)). A delivery to a deactivated URL is recorded SKIPPED. Returns how many
 * deliveries are due now.
 */
export async function recordEvent(pool: Pool, ev: IntakeEvent, targets: Target[]): Promise<number> {
  const r = await pool.query<{ status: string }>(
    `WITH ev AS (
       INSERT INTO event (event_id, merchant_id, channel, event_type, body, created_at)
       VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (event_id) DO NOTHING
     )
     INSERT INTO delivery (event_id, client_id, merchant_id, event_type, status, skip_reason, next_attempt_at)
     SELECT $1, t.client_id, $2, $4,
            CASE WHEN t.status = 'PENDING' AND e.deactivated_at IS NOT NULL THEN 'SKIPPED' ELSE t.status END,
            CASE WHEN t.status = 'PENDING' AND e.deactivated_at IS NOT NULL THEN 'webhook_deactivated'
                 ELSE t.skip_reason END,
            CASE WHEN t.status = 'PENDING' AND e.deactivated_at IS NULL THEN now() END
     FROM unnest($7::text[], $8::text[], $9::text[]) AS t(client_id, status, skip_reason)
     LEFT JOIN endpoint e ON e.client_id = t.client_id
     ON CONFLICT (event_id, client_id) DO NOTHING
     RETURNING status`,
    [
      ev.eventId,
      ev.merchantId,
      ev.channel,
      ev.eventType,
      ev.body,
      ev.createdAt,
      targets.map((t) => t.clientId),
      targets.map((t) => t.status),
      targets.map((t) => t.skipReason),
    ],
  );
  return r.rows.filter((x) => x.status === 'PENDING').length;
}

export interface ClaimedDelivery {
  id: string;
  event_id: string;
  client_id: string;
  merchant_id: string;
  event_type: string;
  round: number;
  attempts: number;
  body: string;
}

/**
 * Claims due deliveries for this replica: at most `limit`, at most `quota(client)` per credential
 * (per-URL cap), skipping deactivated URLs and rows another replica holds (FOR UPDATE SKIP LOCKED).
 * A claim pushes next_attempt_at forward by `leaseMs`: if this process dies mid-attempt, any
 * replica retries after the lease.
 */
export async function claimDue(
  pool: Pool,
  limit: number,
  perClient: number,
  busy: Map<string, number>,
  leaseMs: number,
): Promise<ClaimedDelivery[]> {
  const busyIds = [...busy.keys()];
  const busyLeft = busyIds.map((k) => Math.max(0, perClient - (busy.get(k) ?? 0)));
  const r = await pool.query<ClaimedDelivery>(
    `WITH cand AS (
       SELECT s.id FROM (
         SELECT d.id, d.client_id, d.next_attempt_at,
                row_number() OVER (PARTITION BY d.client_id ORDER BY d.next_attempt_at, d.id) AS rn
         FROM delivery d
         WHERE d.status = 'PENDING' AND d.next_attempt_at <= now()
           AND NOT EXISTS (SELECT 1 FROM endpoint e WHERE e.client_id = d.client_id AND e.deactivated_at IS NOT NULL)
       ) s
       LEFT JOIN unnest($3::text[], $4::int[]) AS b(client_id, left_) ON b.client_id = s.client_id
       WHERE s.rn <= COALESCE(b.left_, $2)
       ORDER BY s.next_attempt_at
       LIMIT $1
     ), locked AS (
       SELECT d.id FROM delivery d
       WHERE d.id IN (SELECT id FROM cand) AND d.status = 'PENDING' AND d.next_attempt_at <= now()
       FOR UPDATE OF d SKIP LOCKED
     )
     UPDATE delivery d SET next_attempt_at = now() + make_interval(secs => $5::double precision / 1000)
     FROM locked, event ev
     WHERE d.id = locked.id AND ev.event_id = d.event_id
     RETURNING d.id, d.event_id, d.client_id, d.merchant_id, d.event_type, d.round, d.attempts, ev.body`,
    [limit, perClient, busyIds, busyLeft, leaseMs],
  );
  return r.rows;
}

/** Earliest due time of a PENDING delivery (ms since epoch) or null. */
export async function nextDueAt(pool: Pool): Promise<number | null> {
  const r = await pool.query<{ t: string | null }>(
    `SELECT min(next_attempt_at) AS t FROM delivery WHERE status = 'PENDING'`,
  );
  return r.rows[0]?.t ? Date.parse(r.rows[0].t) : null;
}

const FENCE = `id = $1 AND round = $2 AND attempts = $3 AND status = 'PENDING'`;

/** Gives a claim back without counting an attempt (shutdown, dependency outage). */
export async function releaseClaim(pool: Pool, d: ClaimedDelivery, delayMs: number): Promise<void> {
  await pool.query(
    `UPDATE delivery SET next_attempt_at = now() + make_interval(secs => $4::double precision / 1000)
     WHERE ${FENCE}`,
    [d.id, d.round, d.attempts, delayMs],
  );
}

export async function markSkipped(pool: Pool, d: ClaimedDelivery, reason: string): Promise<void> {
  await pool.query(
    `UPDATE delivery SET status = 'SKIPPED', skip_reason = $4, next_attempt_at = NULL, updated_at = now()
     WHERE ${FENCE}`,
    [d.id, d.round, d.attempts, reason],
  );
}

export interface AttemptOutcome {
  url: string;
  startedAt: Date;
  durationMs: number;
  statusCode: number | null;
  error: string | null;
  success: boolean;
  /** delay before the next attempt, null when this was the last one */
  retryInMs: number | null;
}

/**
 * Records one attempt and moves the delivery on, in one transaction: DELIVERED on success, a retry
 * at next_attempt_at, or WEBHOOK_FAILED after the last attempt. A final outcome updates the
 * credential's consecutive-failure count; the 20th consecutive failed delivery deactivates the URL
 * and skips the credential's other pending deliveries. Returns the new status (null when the row
 * moved on meanwhile: resend, clear, deactivation).
 */
export async function recordAttempt(
  pool: Pool,
  d: ClaimedDelivery,
  o: AttemptOutcome,
): Promise<'DELIVERED' | 'PENDING' | 'WEBHOOK_FAILED' | null> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query(
      `INSERT INTO attempt (delivery_id, event_id, client_id, event_type, round, attempt, url, started_at,
                            duration_ms, status_code, error, success)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`,
      [
        d.id,
        d.event_id,
        d.client_id,
        d.event_type,
        d.round,
        d.attempts + 1,
        o.url,
        o.startedAt.toISOString(),
        o.durationMs,
        o.statusCode,
        o.error,
        o.success,
      ],
    );
    const status = o.success ? 'DELIVERED' : o.retryInMs === null ? 'WEBHOOK_FAILED' : 'PENDING';
    const u = await client.query(
      `UPDATE delivery SET attempts = attempts + 1, status = $4, last_status_code = $5, last_error = $6,
              next_attempt_at = CASE WHEN $4 = 'PENDING'
                                     THEN now() + make_interval(secs => $7::double precision / 1000) END,
              delivered_at = CASE WHEN $4 = 'DELIVERED' THEN now() ELSE delivered_at END,
              updated_at = now()
       WHERE ${FENCE}`,
      [d.id, d.round, d.attempts, status, o.statusCode, o.error, o.retryInMs ?? 0],
    );
    if (u.rowCount === 0) {
      await client.query('COMMIT');
      return null;
    }
    if (status === 'DELIVERED') await endpointSucceeded(client, d.client_id);
    else if (status === 'WEBHOOK_FAILED') await endpointFailed(client, d.client_id);
    await client.query('COMMIT');
    return status;
  } catch (e) {
    await client.query('ROLLBACK').catch(() => {});
    throw e;
  } finally {
    client.release();
  }
}

async function endpointSucceeded(client: PoolClient, clientId: string): Promise<void> {
  await client.query(
    `INSERT INTO endpoint (client_id, consecutive_failures) VALUES ($1, 0)
     ON CONFLICT (client_id) DO UPDATE SET consecutive_failures = 0, updated_at = now()
     WHERE endpoint.consecutive_failures <> 0`,
    [clientId],
  );
}

async function endpointFailed(client: PoolClient, clientId: string): Promise<void> {
  const r = await client.query<{ deactivated_at: string | null }>(
    `INSERT INTO endpoint (client_id, consecutive_failures, deactivated_at)
     VALUES ($1, 1, CASE WHEN 1 >= $2 THEN now() END)
     ON CONFLICT (client_id) DO UPDATE SET
       consecutive_failures = endpoint.consecutive_failures + 1,
       deactivated_at = CASE WHEN endpoint.deactivated_at IS NULL AND endpoint.consecutive_failures + 1 >= $2
                             THEN now() ELSE endpoint.deactivated_at END,
       updated_at = now()
     RETURNING deactivated_at`,
    [clientId, WEBHOOK_DEACTIVATE_AFTER],
  );
  if (r.rows[0]?.deactivated_at) {
    await client.query(
      `UPDATE delivery SET status = 'SKIPPED', skip_reason = 'webhook_deactivated', next_attempt_at = NULL,
              updated_at = now()
       WHERE client_id = $1 AND status = 'PENDING'`,
      [clientId],
    );
  }
}
