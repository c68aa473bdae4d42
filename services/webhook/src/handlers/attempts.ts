import type { OpHandler, WEBHOOK_OPS, WebhookAttemptView } from '@od/contracts';
import { errors, HttpException } from '@od/errors';
import { type HandlerContext, iso, onePage, pageRequest } from './context.ts';

/** GET /admin/v1/credentials/{clientId}/webhook-attempts: newest first, `cursor` = last id seen. */
export const attemptsHandler =
  (ctx: HandlerContext): OpHandler<typeof WEBHOOK_OPS.attempts> =>
  async (req) => {
    const { cred, limit } = pageRequest(ctx, req);
    const rawCursor = req.query?.cursor;
    let cursor: bigint | undefined;
    if (rawCursor !== undefined && rawCursor !== '') {
      if (typeof rawCursor !== 'string' || !/^\d{1,18}$/.test(rawCursor)) {
        throw new HttpException(errors.adminValidation('cursor inválido.', { cursor: ['invalid'] }));
      }
      cursor = BigInt(rawCursor);
    }
    const rows = await ctx.db.attempt.findMany({
      where: { clientId: cred.clientId, ...(cursor !== undefined ? { id: { lt: cursor } } : {}) },
      orderBy: { id: 'desc' },
      take: limit + 1,
    });
    const { page, nextCursor } = onePage(rows, limit, (last) => String(last.id));
    const items: WebhookAttemptView[] = page.map((a) => ({
      id: Number(a.id),
      eventId: a.eventId,
      eventType: a.eventType,
      round: a.round,
      attempt: a.attempt,
      url: a.url,
      startedAt: iso(a.startedAt)!,
      durationMs: a.durationMs,
      statusCode: a.statusCode,
      error: a.error,
      success: a.success,
    }));
    return { status: 200, body: { items, nextCursor } };
  };
