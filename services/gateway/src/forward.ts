import { callRpc, type RpcReply, RpcUnavailableError } from '@od/bus';
import type { RpcRequest, ServiceName } from '@od/contracts';
import { errors } from '@od/errors';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { GatewayContext } from './context.ts';
import { sendError } from './http/errors.ts';

/**
 * Sends one HTTP request to its service over NATS and writes the reply as is: status from the
 * reply header, body bytes forwarded untouched (no re-parse on the hot path).
 */
export async function forward(
  ctx: GatewayContext,
  request: FastifyRequest,
  reply: FastifyReply,
  service: ServiceName,
  op: string,
  rpc: Omit<RpcRequest, 'traceId' | 'auth'>,
): Promise<FastifyReply> {
  const r = await rpcCall(ctx, request, service, op, rpc);
  if (!r) return sendError(reply, errors.unavailable(request.id));
  return writeRpcReply(reply, r);
}

/** Writes a service's reply as is: status, headers, and the body bytes untouched. */
export function writeRpcReply(reply: FastifyReply, r: RpcReply): FastifyReply {
  reply.code(r.status);
  for (const [k, v] of Object.entries(r.headers)) reply.header(k, v);
  if (r.body.length === 0) return reply.send();
  return reply
    .type('application/json; charset=utf-8')
    .send(Buffer.from(r.body.buffer, r.body.byteOffset, r.body.byteLength));
}

/** The RPC alone (for routes that post-process the answer). `undefined` = service unreachable. */
export async function rpcCall(
  ctx: GatewayContext,
  request: FastifyRequest,
  service: ServiceName,
  op: string,
  rpc: Omit<RpcRequest, 'traceId' | 'auth'>,
) {
  try {
    return await callRpc(ctx.nc, ctx.names.rpc(service, op), {
      ...rpc,
      traceId: request.id,
      auth: request.auth,
    });
  } catch (e) {
    if (e instanceof RpcUnavailableError) {
      request.log.error({ service, op, err: e.message }, 'service unavailable');
      return undefined;
    }
    throw e;
  }
}
