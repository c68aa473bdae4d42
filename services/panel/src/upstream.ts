import { RpcUnavailableError } from '@od/bus';
import {
  type CATALOG_OPS,
  type CallInput,
  canReach,
  type OpSpec,
  PANEL_AREAS,
  type PanelRole,
  type Principal,
  type ReplyOf,
} from '@od/contracts';
import { errors, HttpException } from '@od/errors';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { PanelContext } from './context.ts';

/** What a call needs of the request it serves: its id (the trace id), logger, and the user's store. */
export type Caller = Pick<FastifyRequest, 'id' | 'log' | 'session' | 'store'>;

export interface Upstream<T = unknown> {
  status: number;
  body: T;
}

/**
 * A merchant user at one store, with the areas its role reaches (what the panel asserts); the
 * e-mail is what the owning service records as the actor of the user's actions.
 */
export const userPrincipal = (
  user: { userId: string; email: string },
  merchantId: string,
  role: PanelRole,
): Principal => ({
  kind: 'merchantUser',
  userId: user.userId,
  email: user.email,
  merchantId,
  scopes: PANEL_AREAS.filter((a) => canReach(role, a)),
});

/** The signed-in user at the request's store (set by the store guard). */
function merchantUser(request: Caller): Principal {
  if (!request.session || !request.store)
    throw new Error('panel: a call on behalf of a user needs its store');
  return userPrincipal(request.session, request.store.merchantId, request.store.role);
}

/** The panel acting for itself (invites, the boards' cards): no user behind the call. */
export const PANEL_ITSELF: Principal = { kind: 'service', service: 'panel' };

/**
 * Calls an owning service over the bus, the same op the gateway's admin routes call, signed by the
 * panel as a front door on behalf of the signed-in user at its store (the route already checked the
 * user belongs to it). The input and the reply's type are the op's (`CallInput<O>`, `ReplyOf<O>`:
 * the body is the op's reply when the status is 2xx, the service's error body otherwise). An
 * unreachable service is a 503 for the page.
 */
export async function upstream<O extends OpSpec>(
  ctx: PanelContext,
  request: Caller,
  op: O,
  input: CallInput<O>,
  principal: Principal = merchantUser(request),
): Promise<Upstream<ReplyOf<O>>> {
  try {
    return await ctx.base.rpc.callJson(op, input, { traceId: request.id, principal, timeoutMs: 5000 });
  } catch (e) {
    if (e instanceof RpcUnavailableError) {
      request.log.error({ service: op.service, op: op.name, err: e.message }, 'service unavailable');
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

/**
 * A store-level op of the request's store (`params: { merchantId }`, and `body` when given),
 * answered to the page as is: store settings, the menu. The op checks the body and answers a 400
 * in the admin form (docs/decisions.md, "Who checks a body").
 */
type StoreOp = typeof CATALOG_OPS.adminGet | typeof CATALOG_OPS.adminPatch | typeof CATALOG_OPS.adminPutMenu;
export async function relayStoreOp(
  ctx: PanelContext,
  request: FastifyRequest,
  reply: FastifyReply,
  op: StoreOp,
  body?: unknown,
): Promise<FastifyReply> {
  const params = { merchantId: request.store!.merchantId };
  return relay(
    reply,
    await upstream(
      ctx,
      request,
      op,
      body === undefined ? { params } : ({ params, body } as CallInput<StoreOp>),
    ),
  );
}
