import { type FEED_OPS, POLL_LIMIT_DEFAULT, type RequestOf, type RpcResult } from '@od/contracts';
import type { Pool } from '@od/db';
import { errors, HttpException } from '@od/errors';
import { ackEvents, pollFeed, touchLastPoll } from '../db/queries.ts';
import { splitPage } from '../domain/rules.ts';

/** A replica records a credential's last poll at most once a minute (the panel's overview reads it). */
const TOUCH_EVERY_MS = 60_000;
const touched = new Map<string, number>();

function touchDue(clientId: string, now = Date.now()): boolean {
  const last = touched.get(clientId);
  if (last !== undefined && now - last < TOUCH_EVERY_MS) return false;
  if (touched.size >= 100_000) touched.clear(); // bounded: a forgotten credential costs one write
  touched.set(clientId, now);
  return true;
}

/**
 * GET /v1/events:polling: the credential's oldest pending envelopes, bytes built by PostgreSQL.
 * With `keep` (an Open Delivery caller), the page's other types are acknowledged and left out.
 */
export const pollHandler =
  (pool: Pool) =>
  async (req: RequestOf<typeof FEED_OPS.poll>): Promise<RpcResult> => {
    const clientId = req.auth?.clientId;
    if (!clientId) throw new HttpException(errors.unauthenticated());
    // 1..POLL_LIMIT_MAX: the op's schema, parsed by the bus layer
    const limit = req.query.limit ?? POLL_LIMIT_DEFAULT;
    // the last-poll write leaves the hot path: one UPDATE a minute per credential and replica
    if (touchDue(clientId)) void touchLastPoll(pool, clientId).catch(() => {});
    const page = await pollFeed(pool, clientId, limit);
    if (!req.query.keep) return { status: 200, body: page };
    const { kept, left } = splitPage(JSON.parse(page.toString('utf8')), new Set(req.query.keep));
    if (left.length) await ackEvents(pool, clientId, left);
    return { status: 200, body: kept };
  };
