import {
  type CallInput,
  GUID_PATTERN,
  type HandshakeStep,
  ORDER_OPS,
  type OrderTracking,
  odCancellationDenialSchema,
  orderTrackingSchema,
  type Scope,
  validateCodeQuerySchema,
} from '@od/contracts';
import { errors } from '@od/errors';
import type { FastifyInstance, FastifyReply, FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import { z } from 'zod';
import { bearer } from '../auth/bearer.ts';
import type { GatewayContext, RouteModule } from '../context.ts';
import { forward, rpcCall, writeRpcReply } from '../forward.ts';
import { sendError } from '../http/errors.ts';
import { rawBodyRoutes, rawBodyValidator, rawJson } from '../http/raw-body.ts';
import { isOpenDeliveryCaller } from '../profile/open-delivery.ts';
import { idempotentCall } from './order-calls.ts';

/**
 * The Open Delivery 1.4.0 order flows SPEC does not have, for OPEN_DELIVERY credentials only
 * (a SPEC credential gets the 404 of an unknown route: these paths are not part of its contract):
 * - the point of sale's side of the cancellation handshake: `requestCancellation` (routed here from
 *   the action route), `acceptCancellation` and `denyCancellation` (204, the standard's answer);
 * - `validateCode` (200 `{ orderId, deliveryCode }` or 400 with the cause in `title`);
 * - `tracking` (202, recorded in the order's history).
 * Bodies are the standard's schemas (contracts' open-delivery-flows.ts); answers and errors are
 * rendered in the standard's form by the profile hook.
 */

const params = z.object({ orderId: z.string().regex(GUID_PATTERN) });
/** the steps that carry a body (the standard's; checked once, by orders): acceptCancellation has none */
const STEP_HAS_BODY: Record<HandshakeStep, boolean> = {
  requestCancellation: true,
  denyCancellation: true,
  acceptCancellation: false,
};

/** each step's op, which checks its body (the previous release's `handshake` op is still served) */
const STEP_OPS = {
  requestCancellation: ORDER_OPS.odRequestCancellation,
  acceptCancellation: ORDER_OPS.odAcceptCancellation,
  denyCancellation: ORDER_OPS.odDenyCancellation,
} as const satisfies Record<HandshakeStep, unknown>;

/** One step of the handshake: 202 for requestCancellation, 204 for accept and deny (the standard). */
export async function odCancellationStep(
  ctx: GatewayContext,
  request: FastifyRequest,
  reply: FastifyReply,
  step: HandshakeStep,
) {
  const { orderId } = request.params as { orderId: string };
  const body = STEP_HAS_BODY[step] ? rawJson(request, false) : { value: undefined };
  if ('refused' in body) return sendError(reply, body.refused);
  const op = STEP_OPS[step];
  // the raw JSON as parsed: the step's op checks it
  const input = { params: { orderId }, body: body.value } as CallInput<typeof op>;
  const r = await idempotentCall(ctx, request, body.value, (headers) =>
    rpcCall(ctx, request, op, { ...input, headers }),
  );
  if (r.status === 202 && step !== 'requestCancellation')
    return reply
      .code(204)
      .headers(r.headers ?? {})
      .send();
  return writeRpcReply(reply, r);
}

/** After the bearer check: a SPEC credential does not have these routes (404, as an unknown route). */
const openDeliveryOnly =
  (ctx: GatewayContext): onRequestAsyncHookHandler =>
  async (request, reply) => {
    if (!isOpenDeliveryCaller(ctx, request)) return sendError(reply, errors.notFound(request.id));
  };

export const odFlowRoutes: RouteModule = (app, ctx) => {
  const hooks = (scope: Scope) => [bearer(ctx, scope), openDeliveryOnly(ctx)];
  const doc = (summary: string, description: string) => ({
    params,
    tags: ['open delivery'],
    summary,
    description: `${description} OPEN_DELIVERY credentials only (SPEC credentials: 404).`,
    security: [{ bearer: [] }],
  });
  app.register(async (sub) => {
    const zsub = rawBodyRoutes(sub as unknown as FastifyInstance);
    zsub.post(
      '/v1/orders/:orderId/acceptCancellation',
      {
        schema: doc(
          'Accept the ordering application’s cancellation request',
          'Answers an ORDER_CANCELLATION_REQUEST: 204, then CANCELLED.',
        ),
        validatorCompiler: rawBodyValidator,
        onRequest: hooks('orders:write'),
      },
      (request, reply) => odCancellationStep(ctx, request, reply, 'acceptCancellation'),
    );
    zsub.post(
      '/v1/orders/:orderId/denyCancellation',
      {
        schema: {
          ...doc(
            'Deny the ordering application’s cancellation request',
            'Body RequestDenied { reason, code: DISH_ALREADY_DONE | OUT_FOR_DELIVERY }: 204, then CANCELLED_DENIED.',
          ),
          body: odCancellationDenialSchema,
        },
        validatorCompiler: rawBodyValidator,
        onRequest: hooks('orders:write'),
      },
      (request, reply) => odCancellationStep(ctx, request, reply, 'denyCancellation'),
    );
    zsub.post(
      '/v1/orders/:orderId/tracking',
      {
        schema: {
          ...doc('Delivery updates', 'Body OrderTracking: 202, recorded in the order history (no event).'),
          body: orderTrackingSchema,
        },
        validatorCompiler: rawBodyValidator,
        onRequest: hooks('orders:write'),
        config: { openDelivery: 'accepted' },
      },
      async (request, reply) => {
        const { orderId } = request.params;
        const body = rawJson(request, false);
        if ('refused' in body) return sendError(reply, body.refused);
        // checked once, by the op's schema in orders
        const tracking = body.value as OrderTracking;
        const r = await idempotentCall(ctx, request, tracking, (headers) =>
          rpcCall(ctx, request, ORDER_OPS.tracking, { params: { orderId }, body: tracking, headers }),
        );
        return writeRpcReply(reply, r);
      },
    );
    zsub.post(
      '/v1/orders/:orderId/validateCode',
      {
        schema: {
          ...doc(
            'Validate the customer’s delivery code',
            'Query deliveryCode: 200 { orderId, deliveryCode } when it is the order’s code, 400 otherwise. No event.',
          ),
          querystring: validateCodeQuerySchema,
        },
        validatorCompiler: rawBodyValidator,
        onRequest: hooks('orders:read'),
      },
      (request, reply) =>
        forward(ctx, request, reply, ORDER_OPS.validateCode, {
          params: { orderId: request.params.orderId },
          query: { deliveryCode: request.query.deliveryCode },
        }),
    );
  });
};
