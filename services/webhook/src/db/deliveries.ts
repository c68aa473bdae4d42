import { type ParsedOrderEvent, recipientSql } from '@od/bus';
import { type CredentialRecord, WEBHOOK_DEACTIVATE_AFTER } from '@od/contracts';
import type { Pool } from '@od/db';
import { recordWebhookDeactivated } from '@od/telemetry';
import type { Target } from '../domain/targets.ts';

/** Hot-path SQL of the webhook service (intake, claim, completion), through the service's pg pool. */

type IntakeEvent = Pick<
  ParsedOrderEvent,
  'eventId' | 'merchantId' | 'channel' | 'eventType' | 'envelopeText' | 'createdAt'
>;

/**
 * Stores a batch of events and their deliveries in one statement (one commit; atomic; idempotent by
 * event id). Deliveries are created only for events this statement inserted: an event already
 * stored (redelivery, a recreated consumer replaying the stream) never gets new deliveries.
 * A delivery to a deactivated URL is recorded SKIPPED. Returns how many deliveries are due now.
 */
export async function recordEvents(
  pool: Pool,
  batch: { ev: IntakeEvent; targets: Target[] }[],
): Promise<number> {
  const seen = new Set<string>();
  const evs: IntakeEvent[] = [];
  const ds: { ev: IntakeEvent; t: Target }[] = [];
  for (const { ev, targets } of batch) {
    if (seen.has(ev.eventId)) continue;
    seen.add(ev.eventId);
    evs.push(ev);
    for (const t of targets) ds.push({ ev, t });
  }
  const r = await pool.query<{ status: string }>({
    name: 'webhook_record_events',
    text: `WITH ev AS (
       INSERT INTO event (event_id, merchant_id, channel, event_type, body, created_at)
       SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::text[], $4::text[], $5::text[], $6::timestamptz[])
       ON CONFLICT (event_id) DO NOTHING
       RETURNING event_id
     )
     INSERT INTO delivery (event_id, client_id, merchant_id, event_type, status, skip_reason, next_attempt_at)
     SELECT t.event_id, t.client_id, t.merchant_id, t.event_type,
            CASE WHEN t.status = 'PENDING' AND e.deactivated_at IS NOT NULL THEN 'SKIPPED' ELSE t.status END,
            CASE WHEN t.status = 'PENDING' AND e.deactivated_at IS NOT NULL THEN 'webhook_deactivated'
                 ELSE t.skip_reason END,
            CASE WHEN t.status = 'PENDING' AND e.deactivated_at IS NULL THEN now() END
     FROM unnest($7::uuid[], $8::text[], $9::uuid[], $10::text[], $11::text[], $12::text[])
          AS t(event_id, client_id, merchant_id, event_type, status, skip_reason)
     JOIN ev ON ev.event_id = t.event_id
     LEFT JOIN endpoint e ON e.client_id = t.client_id
     ON CONFLICT (event_id, client_id) DO NOTHING
     RETURNING status`,
    values: [
      evs.map((e) => e.eventId),
      evs.map((e) => e.merchantId),
      evs.map((e) => e.channel),
      evs.map((e) => e.eventType),
      evs.map((e) => e.envelopeText),
      evs.map((e) => e.createdAt),
      ds.map((d) => d.ev.eventId),
      ds.map((d) => d.t.clientId),
      ds.map((d) => d.ev.merchantId),
      ds.map((d) => d.ev.eventType),
      ds.map((d) => d.t.status),
      ds.map((d) => d.t.skipReason),
    ],
  });
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
  const r = await pool.query<ClaimedDelivery>({
    name: 'webhook_claim_due',
    text: `WITH RECURSIVE c(client_id) AS (
       (SELECT client_id FROM delivery WHERE status = 'PENDING' ORDER BY client_id LIMIT 1)
       UNION ALL
       SELECT (SELECT d.client_id FROM delivery d
               WHERE d.status = 'PENDING' AND d.client_id > c.client_id ORDER BY d.client_id LIMIT 1)
       FROM c WHERE c.client_id IS NOT NULL
     ), cand AS (
       SELECT x.id FROM c
       LEFT JOIN unnest($3::text[], $4::int[]) AS b(client_id, left_) ON b.client_id = c.client_id
       CROSS JOIN LATERAL (
         SELECT d.id, d.next_attempt_at FROM delivery d
         WHERE d.client_id = c.client_id AND d.status = 'PENDING' AND d.next_attempt_at <= now()
         ORDER BY d.next_attempt_at LIMIT COALESCE(b.left_, $2)
       ) x
       WHERE c.client_id IS NOT NULL
         AND NOT EXISTS (SELECT 1 FROM endpoint e WHERE e.client_id = c.client_id AND e.deactivated_at IS NOT NULL)
       ORDER BY x.next_attempt_at
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
    values: [limit, perClient, busyIds, busyLeft, leaseMs],
  });
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
  const status = o.success ? 'DELIVERED' : o.retryInMs === null ? 'WEBHOOK_FAILED' : 'PENDING';
  // one statement, one commit: attempt row, delivery state, endpoint health
  const r = await pool.query<{ status: string; deactivated: boolean | null }>({
    name: 'webhook_record_attempt',
    text: `WITH a AS (
       INSERT INTO attempt (delivery_id, event_id, client_id, event_type, round, attempt, url, started_at,
                            duration_ms, status_code, error, success)
       VALUES ($1, $8, $9, $10, $2, $3 + 1, $11, $12, $13, $5, $6, $14)
     ), u AS (
       UPDATE delivery SET attempts = attempts + 1, status = $4, last_status_code = $5, last_error = $6,
              next_attempt_at = CASE WHEN $4 = 'PENDING'
                                     THEN now() + make_interval(secs => $7::double precision / 1000) END,
              delivered_at = CASE WHEN $4 = 'DELIVERED' THEN now() ELSE delivered_at END,
              updated_at = now()
       WHERE ${FENCE}
       RETURNING client_id, status
     ), ep AS (
       INSERT INTO endpoint AS en (client_id, consecutive_failures)
       SELECT client_id, CASE WHEN status = 'DELIVERED' THEN 0 ELSE 1 END FROM u
       WHERE status IN ('DELIVERED', 'WEBHOOK_FAILED')
       ON CONFLICT (client_id) DO UPDATE SET
         consecutive_failures = CASE WHEN EXCLUDED.consecutive_failures = 0 THEN 0
                                     ELSE en.consecutive_failures + 1 END,
         deactivated_at = CASE WHEN EXCLUDED.consecutive_failures = 1 AND en.deactivated_at IS NULL
                                    AND en.consecutive_failures + 1 >= $15
                               THEN now() ELSE en.deactivated_at END,
         updated_at = now()
       WHERE NOT (EXCLUDED.consecutive_failures = 0 AND en.consecutive_failures = 0)
       RETURNING deactivated_at IS NOT NULL AS deactivated
     )
     SELECT u.status, (SELECT deactivated FROM ep) AS deactivated FROM u`,
    values: [
      d.id,
      d.round,
      d.attempts,
      status,
      o.statusCode,
      o.error,
      o.retryInMs ?? 0,
      d.event_id,
      d.client_id,
      d.event_type,
      o.url,
      o.startedAt.toISOString(),
      o.durationMs,
      o.success,
      WEBHOOK_DEACTIVATE_AFTER,
    ],
  });
  const row = r.rows[0];
  if (!row) return null;
  if (status === 'WEBHOOK_FAILED' && row.deactivated) {
    recordWebhookDeactivated();
    await skipPendingOfDeactivated(pool, d.client_id);
  }
  return status;
}

/** The URL was just deactivated: its waiting deliveries are skipped (the queue, until cleared). */
async function skipPendingOfDeactivated(pool: Pool, clientId: string): Promise<void> {
  await pool.query(
    `UPDATE delivery SET status = 'SKIPPED', skip_reason = 'webhook_deactivated', next_attempt_at = NULL,
            updated_at = now()
     WHERE client_id = $1 AND status = 'PENDING'
       AND EXISTS (SELECT 1 FROM endpoint WHERE client_id = $1 AND deactivated_at IS NOT NULL)`,
    [clientId],
  );
}

/**
 * Retention: attempts, finished deliveries and events older than `days` are deleted (in bounded
 * batches; any replica may run it). PENDING deliveries and their events are kept.
 */
export async function pruneOld(pool: Pool, days: number, batch = 5_000): Promise<number> {
  const r = await pool.query<{ n: number }>(
    `WITH a AS (
       DELETE FROM attempt WHERE id IN (
         SELECT id FROM attempt WHERE started_at < now() - make_interval(days => $1) LIMIT $2)
       RETURNING 1
     ), d AS (
       DELETE FROM delivery WHERE id IN (
         SELECT id FROM delivery WHERE status <> 'PENDING' AND created_at < now() - make_interval(days => $1) LIMIT $2)
       RETURNING 1
     ), e AS (
       DELETE FROM event ev WHERE ev.event_id IN (
         SELECT event_id FROM event WHERE received_at < now() - make_interval(days => $1) LIMIT $2)
         AND NOT EXISTS (SELECT 1 FROM delivery x WHERE x.event_id = ev.event_id AND x.status = 'PENDING')
       RETURNING 1
     )
     SELECT (SELECT count(*) FROM a) + (SELECT count(*) FROM d) + (SELECT count(*) FROM e) AS n`,
    [days, batch],
  );
  return Number(r.rows[0]?.n ?? 0);
}

const BACKFILL_RECIPIENT = recipientSql({
  credential: {
    merchantId: '$2',
    status: '$5',
    createdAt: '$3',
    includeMarketplaceOrders: '$4',
    apiProfile: '$6',
  },
  event: {
    merchantId: 'ev.merchant_id',
    channel: 'ev.channel',
    createdAt: 'ev.created_at',
    eventType: 'ev.event_type',
  },
});

/**
 * A credential that just appeared (or just became webhook-capable): events of its store already
 * stored and visible to it, but processed before this replica saw the credential, get their
 * deliveries now (idempotent). Returns how many deliveries were created.
 */
export async function backfillCredential(
  pool: Pool,
  c: Pick<
    CredentialRecord,
    'clientId' | 'merchantId' | 'status' | 'createdAt' | 'includeMarketplaceOrders' | 'apiProfile'
  >,
): Promise<number> {
  const r = await pool.query(
    `INSERT INTO delivery (event_id, client_id, merchant_id, event_type, status, next_attempt_at)
     SELECT ev.event_id, $1, ev.merchant_id, ev.event_type, 'PENDING', now()
     FROM event ev
     WHERE ${BACKFILL_RECIPIENT}
       AND NOT EXISTS (SELECT 1 FROM endpoint e WHERE e.client_id = $1 AND e.deactivated_at IS NOT NULL)
     ON CONFLICT (event_id, client_id) DO NOTHING`,
    [c.clientId, c.merchantId, c.createdAt, c.includeMarketplaceOrders, c.status, c.apiProfile],
  );
  return r.rowCount ?? 0;
}
