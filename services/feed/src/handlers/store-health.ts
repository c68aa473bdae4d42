import { type FEED_OPS, isGuid, type RequestOf, type RpcResult, type StoreFeedHealth } from '@od/contracts';
import type { Pool } from '@od/db';
import { storeFeedHealth } from '../db/queries.ts';

/** The feed health of every credential of a store (the panel's overview): pending, last poll. */
export const storeHealthHandler =
  (pool: Pool) =>
  async (req: RequestOf<typeof FEED_OPS.adminStoreHealth>): Promise<RpcResult> => {
    const { merchantId } = req.params;
    const items: StoreFeedHealth[] = isGuid(merchantId)
      ? await storeFeedHealth(pool, merchantId.toLowerCase())
      : [];
    return { status: 200, body: { items } };
  };
