import {
  adminCancellationDecisionSchema,
  adminCancellationRequestSchema,
  adminOrderQuerySchema,
  CANCELLATION_DECISIONS,
  type CancellationBody,
  cancellationBodySchema,
  cancelSchema,
  courierUpdateSchema,
  ORDER_ACTIONS,
  ORDER_OPS,
  orderEditSchema,
  orderIntakeSchema,
} from '@od/contracts';
import type { RouteModule } from '../context.ts';
import { forward, relayRoutes, rpcCall, writeRpcReply } from '../forward.ts';
import { unavailableReply } from '../routes/order-calls.ts';
import { merchantParams, orderParams } from './params.ts';

type P = { orderId: string };

/**
 * Admin routes served by the orders service (channels and the merchant panel). The relayed bodies
 * (edit, cancel, courier) are checked once, by the ops' schemas in orders (400 `{ error, message,
 * errors }`); intake, the handshake and the actions are still checked here first as well. Order intake takes an optional
 * `Idempotency-Key` (same rules as the public actions, scope `admin`): the same order comes back.
 */
export const orderAdminRoutes: RouteModule = (app, ctx) => {
  app.post(
    '/admin/v1/merchants/:merchantId/orders',
    {
      schema: {
        params: merchantParams,
        body: orderIntakeSchema,
        summary: 'Create an order as a channel would -> 201',
        description:
          "409 `{ error: store_closed, message }` when the store or the order type's service is closed, paused or " +
          "outside its hours at the order's time (the scheduled start of a SCHEDULED order): nothing is created. " +
          "The order's confirmation deadline (`confirmBy` on GET) is the store's confirmationTimeoutSeconds after it enters PENDING.",
      },
    },
    async (request, reply) => {
      const { merchantId } = request.params;
      const r = await ctx.idempotency.run(request, request.body, async (headers) => {
        const rpc = { params: { merchantId }, body: request.body, headers };
        return (await rpcCall(ctx, request, ORDER_OPS.adminCreate, rpc)) ?? unavailableReply(request.id);
      });
      return writeRpcReply(reply, r);
    },
  );
  const relay = relayRoutes(app, ctx);
  const at = '/admin/v1/orders/:orderId';
  // history a page at a time: follow `historyNextCursor` with ?historyAfter= (orders README)
  relay.get(at, { params: orderParams, querystring: adminOrderQuerySchema }, ORDER_OPS.adminGet);
  relay.patch(at, { params: orderParams, body: orderEditSchema }, ORDER_OPS.adminEdit);
  relay.post(`${at}/payment`, { params: orderParams }, ORDER_OPS.adminPayment);
  relay.post(`${at}/cancel`, { params: orderParams, body: cancelSchema }, ORDER_OPS.adminCancel);
  relay.post(`${at}/courier`, { params: orderParams, body: courierUpdateSchema }, ORDER_OPS.adminCourier);
  // the Open Delivery cancellation handshake, ordering application's side (OPEN_DELIVERY credentials)
  app.post(
    '/admin/v1/orders/:orderId/cancellation-request',
    { schema: { params: orderParams, body: adminCancellationRequestSchema } },
    (request, reply) =>
      forward(ctx, request, reply, ORDER_OPS.adminCancellationRequest, {
        params: { orderId: request.params.orderId },
        body: request.body,
      }),
  );
  for (const decision of CANCELLATION_DECISIONS) {
    app.post(
      `/admin/v1/orders/:orderId/cancellation-request/${decision}`,
      { schema: { params: orderParams, body: adminCancellationDecisionSchema.nullable().optional() } },
      (request, reply) =>
        forward(ctx, request, reply, ORDER_OPS.adminCancellationDecision, {
          params: { orderId: (request.params as P).orderId, decision },
          body: request.body ?? {},
        }),
    );
  }
  for (const name of ORDER_ACTIONS) {
    const schema = {
      params: orderParams,
      ...(name === 'requestCancellation' ? { body: cancellationBodySchema.nullable().optional() } : {}),
    };
    app.post(`/admin/v1/orders/:orderId/${name}`, { schema }, (request, reply) =>
      forward(ctx, request, reply, ORDER_OPS.adminAction, {
        params: { orderId: (request.params as P).orderId, action: name },
        // only requestCancellation reads a body; any other is not forwarded
        body: name === 'requestCancellation' ? (request.body as CancellationBody | null) : undefined,
      }),
    );
  }
};
