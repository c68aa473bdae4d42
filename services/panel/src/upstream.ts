import { callRpc, RpcUnavailableError } from '@od/bus';
import type { RpcRequest, ServiceName } from '@od/contracts';
import { errors, HttpException } from '@od/errors';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { PanelContext } from './context.ts';

/** What a call needs of the request it serves: its id (the trace id) and logger. */
export type Caller = Pick<FastifyRequest, 'id' | 'log'>;

export interface Upstream<T = unknown> {
  status: number;
  body: T;
}

const dec = new TextDecoder();

/**
 * Calls an owning service over the bus, the same op the gateway's admin routes call, with the
 * signed-in user's store as context (the route already checked the user belongs to it). An
 * unreachable service is a 503 for the page.
 */
export async function upstream<T = unknown>(
  ctx: PanelContext,
  request: Caller,
  service: ServiceName,
  op: string,
  rpc: Omit<RpcRequest, 'traceId'>,
): Promise<Upstream<T>> {
  try {
    const r = await callRpc(
      ctx.base.nc,
      ctx.base.names.rpc(service, op),
      { ...rpc, traceId: request.id },
      5000,
    );
    const text = dec.decode(r.body);
    return { status: r.status, body: (text ? JSON.parse(text) : undefined) as T };
  } catch (e) {
    if (e instanceof RpcUnavailableError) {
      request.log.error({ service, op, err: e.message }, 'service unavailable');
      throw new HttpException(errors.unavailable(request.id));
    }
    throw e;
  }
}

/** Answers the page with a service's reply as is (status and JSON body). */
export function relay(reply: FastifyReply, r: Upstream): FastifyReply {
  reply.code(r.status);
  return r.body === undefined ? reply.send() : reply.send(r.body);
}

export const ok = (r: Upstream): boolean => r.status >= 200 && r.status < 300;
