import type { FEED_OPS, RequestOf, RpcResult } from '@od/contracts';
import type { Pool } from '@od/db';
import { errors, HttpException } from '@od/errors';
import { pollFeed } from '../db/queries.ts';
import { pollLimit } from '../domain/rules.ts';

/** GET /v1/events:polling: the credential's oldest pending envelopes, bytes built by PostgreSQL. */
export const pollHandler =
  (pool: Pool) =>
  async (req: RequestOf<typeof FEED_OPS.poll>): Promise<RpcResult> => {
    const clientId = req.auth?.clientId;
    if (!clientId) throw new HttpException(errors.unauthenticated());
    const limit = pollLimit(req.query?.limit);
    if (limit === undefined)
      throw new HttpException(
        errors.validation({ limit: ['limit deve ser um inteiro entre 1 e 200.'] }, req.traceId),
      );
    return { status: 200, body: Buffer.from(await pollFeed(pool, clientId, limit)) };
  };
