import type { FEED_OPS, RequestOf, RpcResult } from '@od/contracts';
import type { Pool } from '@od/db';
import { errors, HttpException } from '@od/errors';
import { ackEvents } from '../db/queries.ts';
import { ackIds } from '../domain/rules.ts';

/** POST /v1/events/acknowledgment -> 202 { acknowledged: entries this call acknowledged }. */
export const ackHandler =
  (pool: Pool) =>
  async (req: RequestOf<typeof FEED_OPS.ack>): Promise<RpcResult> => {
    const clientId = req.auth?.clientId;
    if (!clientId) throw new HttpException(errors.unauthenticated());
    // the body is the op's (a list of at most ACK_MAX_ENTRIES { id: GUID }), parsed by the bus layer
    const ids = ackIds(req.body);
    return { status: 202, body: { acknowledged: await ackEvents(pool, clientId, ids) } };
  };
