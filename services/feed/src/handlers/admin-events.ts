import {
  type AdminFeedEntry,
  type AdminFeedPage,
  type FEED_OPS,
  isGuid,
  type RequestOf,
  type RpcResult,
} from '@od/contracts';
import type { Pool } from '@od/db';
import { errors, HttpException } from '@od/errors';
import type { Db } from '../db/client.ts';

/** timestamps come from pg as text (the pool's parsers) */
const iso = (t: string | Date) => new Date(t).toISOString();

const PAGE_SQL = `SELECT f.seq, f.added_at, f.acked_at, e.event_id, e.event_type, e.order_id, e.created_at, e.envelope
FROM feed_entries f JOIN events e ON e.event_id = f.event_id
WHERE f.credential_id = $1
  AND ($2::bigint IS NULL OR f.seq < $2)
  AND ($3 = 'all' OR ($3 = 'pending') = (f.acked_at IS NULL))
  AND ($4::text IS NULL OR e.event_type = $4)
  AND ($5::uuid[] IS NULL OR f.event_id = ANY($5))
ORDER BY f.seq DESC
LIMIT $6`;

const intIn = (raw: unknown, min: number, max: number): number | undefined => {
  const n =
    typeof raw === 'number' ? raw : typeof raw === 'string' && /^\d+$/.test(raw) ? Number(raw) : Number.NaN;
  return Number.isInteger(n) && n >= min && n <= max ? n : undefined;
};

/**
 * GET /admin/v1/credentials/{clientId}/events: the credential's feed with ack state, newest first
 * (by feed position `seq`), `limit` 1..500 (default 50), `before=<seq>` for the next page,
 * `state` all | pending | acknowledged, `eventType`, `eventIds` (comma separated, at most 200):
 * every filter applies in the query, so each page is full.
 */
export const adminEventsHandler =
  (db: Db, pool: Pool) =>
  async (req: RequestOf<typeof FEED_OPS.adminEvents>): Promise<RpcResult> => {
    const clientId = req.params.clientId;
    const q = req.query ?? {};
    const limit = q.limit === undefined ? 50 : intIn(q.limit, 1, 500);
    const before = q.before === undefined ? undefined : intIn(q.before, 1, Number.MAX_SAFE_INTEGER);
    const state = (q.state ?? 'all') as string;
    const eventType = typeof q.eventType === 'string' && q.eventType ? q.eventType : null;
    const eventIds = typeof q.eventIds === 'string' ? q.eventIds.split(',').filter(Boolean) : null;
    if (
      limit === undefined ||
      (q.before !== undefined && before === undefined) ||
      !['all', 'pending', 'acknowledged'].includes(state) ||
      (eventType !== null && !/^[A-Z_]{1,50}$/.test(eventType)) ||
      (eventIds !== null && (eventIds.length > 200 || !eventIds.every(isGuid)))
    )
      throw new HttpException(
        errors.adminValidation(
          'Parâmetros inválidos (limit 1..500, before inteiro, state all|pending|acknowledged, eventType, eventIds: até 200).',
        ),
      );
    const cred = await db.credential.findUnique({ where: { clientId } });
    if (!cred) throw new HttpException(errors.adminNotFound('Credencial'));
    const rows = (
      await pool.query<{
        seq: string;
        added_at: string;
        acked_at: string | null;
        event_id: string;
        event_type: string;
        order_id: string;
        created_at: string;
        envelope: string;
      }>(PAGE_SQL, [
        clientId,
        before ?? null,
        state,
        eventType,
        eventIds?.map((id) => id.toLowerCase()) ?? null,
        limit + 1,
      ])
    ).rows;
    const page = rows.slice(0, limit);
    const items: AdminFeedEntry[] = page.map((r) => ({
      seq: Number(r.seq),
      eventId: r.event_id,
      eventType: r.event_type,
      orderId: r.order_id,
      createdAt: iso(r.created_at),
      addedAt: iso(r.added_at),
      acknowledged: r.acked_at !== null,
      acknowledgedAt: r.acked_at ? iso(r.acked_at) : null,
      envelope: JSON.parse(r.envelope),
    }));
    const pending = await db.feedEntry.count({ where: { credentialId: clientId, ackedAt: null } });
    const body: AdminFeedPage = {
      clientId,
      status: cred.status,
      items,
      nextBefore: rows.length > limit ? Number(page[page.length - 1].seq) : null,
      pending,
    };
    return { status: 200, body };
  };
