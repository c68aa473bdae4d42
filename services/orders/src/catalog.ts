import { RpcUnavailableError } from '@od/bus';
import { INTERNAL_OPS, isGuid, type MerchantSnapshot } from '@od/contracts';
import { errors, HttpException } from '@od/errors';
import type { OrdersDeps } from './deps.ts';

/**
 * The store facts at intake (catalog RPC). 404 -> merchant_not_found; catalog down -> 503.
 * Called before `writeOrder` opens its transaction: no RPC while an order row is locked.
 */
export async function merchantSnapshot(
  deps: OrdersDeps,
  merchantId: string,
  traceId: string,
): Promise<MerchantSnapshot> {
  const notFoundMerchant = () => new HttpException(errors.merchantNotFound());
  if (!isGuid(merchantId)) throw notFoundMerchant();
  try {
    const r = await deps.rpc.callJson(
      INTERNAL_OPS.merchantSnapshot,
      { body: { merchantId } },
      { traceId, timeoutMs: 5000 },
    );
    if (r.status === 404) throw notFoundMerchant();
    if (r.status !== 200) throw new HttpException(errors.unavailable(traceId));
    return r.body;
  } catch (e) {
    if (e instanceof RpcUnavailableError) throw new HttpException(errors.unavailable(traceId));
    throw e;
  }
}

/**
 * The snapshot fetched ahead of the transaction, its refusal kept: `plan` rethrows it, so a 4xx is
 * still recorded with the Idempotency-Key and a recorded answer still replays first.
 */
export async function prefetchSnapshot(
  deps: OrdersDeps,
  merchantId: string,
  traceId: string,
): Promise<() => MerchantSnapshot> {
  try {
    const snapshot = await merchantSnapshot(deps, merchantId, traceId);
    return () => snapshot;
  } catch (e) {
    return () => {
      throw e;
    };
  }
}
