import {
  EVENT_HISTORY_DAYS,
  type FEED_OPS,
  historyPosition,
  pageBody,
  type RequestOf,
  type RpcResult,
} from '@od/contracts';
import type { Pool } from '@od/db';
import { errors, HttpException } from '@od/errors';
import { eventHistory } from '../db/history.ts';

/**
 * GET /v1/events (extension): the credential's envelopes in a date range, acknowledged or not, with
 * `acknowledgedAt`, oldest first, keyset-paged. Never acknowledges, re-queues or changes anything.
 */
export const historyHandler =
  (pool: Pool) =>
  async (req: RequestOf<typeof FEED_OPS.history>): Promise<RpcResult> => {
    const clientId = req.auth?.clientId;
    if (!clientId) throw new HttpException(errors.unauthenticated());
    const pos = historyPosition(req.query, new Date(), EVENT_HISTORY_DAYS);
    if ('errors' in pos) throw new HttpException(errors.validation(pos.errors, req.traceId));
    const rows = await eventHistory(pool, {
      clientId,
      from: pos.range.from,
      to: pos.range.to,
      after: pos.after,
      take: pos.limit + 1,
    });
    return { status: 200, body: Buffer.from(pageBody('events', rows, pos.limit)) };
  };
