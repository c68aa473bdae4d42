import type { RpcReply } from '@od/bus';
import { errors } from '@od/errors';
import type { FastifyRequest } from 'fastify';
import type { GatewayContext } from '../context.ts';
import { errorReply } from '../forward.ts';

// What the order routes (public SPEC actions, the Open Delivery flows, admin intake) share.

export function unavailableReply(traceId: string): RpcReply {
  return errorReply(errors.unavailable(traceId));
}

/**
 * One order-changing call through Idempotency-Key (per credential): the fingerprint is the method,
 * path and canonical body (fingerprintOf), so a key reused with another request is refused.
 */
export async function idempotentCall(
  ctx: GatewayContext,
  request: FastifyRequest,
  body: unknown,
  call: (headers: Record<string, string>) => Promise<RpcReply | undefined>,
): Promise<RpcReply> {
  return ctx.idempotency.run(
    request,
    body,
    async (headers) => (await call(headers)) ?? unavailableReply(request.id),
  );
}
