import type { AdminFeedEntry, AdminFeedPage, FEED_OPS, RequestOf, RpcResult } from '@od/contracts';
import { errors, HttpException } from '@od/errors';
import type { Db } from '../db/client.ts';

const intIn = (raw: unknown, min: number, max: number): number | undefined => {
  const n =
    typeof raw === 'number' ? raw : typeof raw === 'string' && /^\d+$/.test(raw) ? Number(raw) : Number.NaN;
  return Number.isInteger(n) && n >= min && n <= max ? n : undefined;
};

/**
 * GET /admin/v1/credentials/{clientId}/events: the credential's feed with ack state, newest first
 * (by feed position `seq`), `limit` 1..500 (default 50), `before=<seq>` for the next page,
 * `state` all | pending | acknowledged.
 */
export const adminEventsHandler =
  (db: Db) =>
  async (req: RequestOf<typeof FEED_OPS.adminEvents>): Promise<RpcResult> => {
    const clientId = req.params.clientId;
    const q = req.query ?? {};
    const limit = q.limit === undefined ? 50 : intIn(q.limit, 1, 500);
    const before = q.before === undefined ? undefined : intIn(q.before, 1, Number.MAX_SAFE_INTEGER);
    const state = (q.state ?? 'all') as string;
    if (
      limit === undefined ||
      (q.before !== undefined && before === undefined) ||
      !['all', 'pending', 'acknowledged'].includes(state)
    )
      throw new HttpException(
        errors.adminValidation(
          'Parâmetros inválidos (limit 1..500, before inteiro, state all|pending|acknowledged).',
        ),
      );
    const cred = await db.credential.findUnique({ where: { clientId } });
    if (!cred) throw new HttpException(errors.adminNotFound('Credencial'));
    const rows = await db.feedEntry.findMany({
      where: {
        credentialId: clientId,
        ...(before !== undefined ? { seq: { lt: BigInt(before) } } : {}),
        ...(state === 'pending'
          ? { ackedAt: null }
          : state === 'acknowledged'
            ? { ackedAt: { not: null } }
            : {}),
      },
      orderBy: { seq: 'desc' },
      take: limit + 1,
    });
    const page = rows.slice(0, limit);
    const events = await db.event.findMany({ where: { eventId: { in: page.map((r) => r.eventId) } } });
    const byId = new Map(events.map((e) => [e.eventId, e]));
    const items: AdminFeedEntry[] = page.flatMap((r) => {
      const e = byId.get(r.eventId);
      if (!e) return [];
      return [
        {
          seq: Number(r.seq),
          eventId: e.eventId,
          eventType: e.eventType,
          orderId: e.orderId,
          createdAt: e.createdAt.toISOString(),
          addedAt: r.addedAt.toISOString(),
          acknowledged: r.ackedAt !== null,
          acknowledgedAt: r.ackedAt ? r.ackedAt.toISOString() : null,
          envelope: JSON.parse(e.envelope),
        },
      ];
    });
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
