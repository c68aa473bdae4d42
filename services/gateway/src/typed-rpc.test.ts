import type { RpcClient } from '@od/bus';
import {
  CATALOG_OPS,
  FEED_OPS,
  type Handlers,
  INTERNAL_OPS,
  inviteBodySchema,
  type OpHandler,
  ORDER_OPS,
  type OrderAction,
  PANEL_OPS,
  RPC,
} from '@od/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { GatewayContext, ZodApp } from './context.ts';
import { forward, relayRoutes } from './forward.ts';

/**
 * Type-level contract of the RPC catalogue: each `@ts-expect-error` line below must fail to
 * compile (`pnpm typecheck` fails if one compiles). The function is never run.
 */
async function typeChecks(rpc: RpcClient, ctx: GatewayContext, request: FastifyRequest, reply: FastifyReply) {
  const o = { traceId: 't' };
  await rpc.call(ORDER_OPS.get, { params: { orderId: 'x' } }, o);
  // @ts-expect-error params are required by orders.get
  await rpc.call(ORDER_OPS.get, {}, o);
  // @ts-expect-error orders.get takes no body
  await rpc.call(ORDER_OPS.get, { params: { orderId: 'x' }, body: { a: 1 } }, o);
  // @ts-expect-error an action outside the SPEC list
  await rpc.call(ORDER_OPS.action, { params: { orderId: 'x', action: 'explode' } }, o);
  // @ts-expect-error webhookSecrets takes { clientId }
  await rpc.call(INTERNAL_OPS.webhookSecrets, { body: { merchantId: 'x' } }, o);
  // @ts-expect-error no such op in the orders catalogue (a feed op is not an orders op)
  await rpc.call(RPC.orders.poll, {}, o);
  const secrets = await rpc.callJson(INTERNAL_OPS.webhookSecrets, { body: { clientId: 'odc_x' } }, o);
  const list: string[] = secrets.body.secrets;
  // @ts-expect-error the reply is typed: secrets are strings
  const wrong: number[] = secrets.body.secrets;

  // the gateway: the op names its service, the input is the op's
  await forward(ctx, request, reply, FEED_OPS.poll, { query: { limit: 10 } });
  // @ts-expect-error the old (service, op-name) pair no longer compiles
  await forward(ctx, request, reply, 'orders', FEED_OPS.poll, {});
  // @ts-expect-error feed.ack has no params
  await forward(ctx, request, reply, FEED_OPS.ack, { params: { orderId: 'x' } });
  // a relayed body is checked by the op: an op taking any body cannot be relayed one
  const relay = relayRoutes({} as ZodApp, ctx);
  relay.post(
    '/x',
    { params: z.object({ merchantId: z.string() }), body: inviteBodySchema },
    PANEL_OPS.invite,
  );
  const onboarding = { querystring: z.object({ merchantId: z.string() }), body: inviteBodySchema };
  // @ts-expect-error odOnboarding's body is not checked by its schema (the handler does)
  relay.post('/x', onboarding, CATALOG_OPS.odOnboarding);

  // handlers: typed requests, one per op
  const action: OpHandler<typeof ORDER_OPS.action> = (req) => {
    const a: OrderAction = req.params.action;
    return { status: 202, body: a };
  };
  const get: OpHandler<typeof ORDER_OPS.get> = (req) => {
    // @ts-expect-error orders.get has no merchantId param
    return { status: 200, body: req.params.merchantId };
  };
  const ok = { status: 200 };
  // @ts-expect-error a catalogue's handlers must cover every op (adminEvents missing)
  const feed: Handlers<typeof RPC.feed> = { poll: () => ok, ack: () => ok };
  return [list, wrong, action, get, feed];
}

describe('typed RPC catalogue', () => {
  it('compiles only matching op/input pairs (checked by pnpm typecheck)', () => {
    expect(typeof typeChecks).toBe('function');
    expect(RPC.orders.action.service).toBe('orders');
    expect(Object.values(RPC).every((c) => Object.values(c).every((op) => op.callers.length > 0))).toBe(true);
  });
});
