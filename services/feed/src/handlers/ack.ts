import { ACK_MAX_ENTRIES, type FEED_OPS, type RequestOf, type RpcResult } from '@od/contracts';
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
    const ids = ackIds(req.body);
    if (ids === null || (Array.isArray(req.body) && req.body.length > ACK_MAX_ENTRIES))
      throw new HttpException(
        errors.validation({ $: ['O corpo deve ser uma lista de { id: GUID }.'] }, req.traceId),
      );
    return { status: 202, body: { acknowledged: await ackEvents(pool, clientId, ids) } };
  };
