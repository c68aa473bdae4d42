import {
  actionResponseSchema,
  type CancellationBody,
  cancellationBodySchema,
  GUID_PATTERN,
  MAX_CANCELLATION_REASON,
  ORDER_ACTIONS,
  ORDER_OPS,
  type OrderAction,
  orderSchema,
} from '@od/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { bearer } from '../auth/bearer.ts';
import type { GatewayContext, RouteModule } from '../context.ts';
import { forward, rpcCall, writeRpcReply } from '../forward.ts';
import { sendError } from '../http/errors.ts';
import { rawBodyRoutes, rawBodyValidator, rawJson } from '../http/raw-body.ts';
import { json, responses } from '../http/responses.ts';
import { isOpenDeliveryCaller } from '../profile/open-delivery.ts';
import { odCancellationStep } from './od-flows.ts';
import { idempotentCall } from './order-calls.ts';

const params = z.object({ orderId: z.string().regex(GUID_PATTERN) });
/** actions SPEC adds to the standard's */
const EXTENSION_ACTIONS = new Set<OrderAction>(['startPreparation', 'pickedUp']);

/**
 * Runs one lifecycle action through Idempotency-Key (per credential) and the orders service.
 * Only requestCancellation reads its body (`{ reason?, code? }`); other actions ignore any body.
 * An OPEN_DELIVERY credential's requestCancellation is the standard's request (see
 * od-flows.ts): answered later by the platform, not an immediate cancellation.
 */
async function action(ctx: GatewayContext, request: FastifyRequest, reply: FastifyReply, name: OrderAction) {
  const { orderId } = request.params as { orderId: string };
  if (name === 'requestCancellation' && isOpenDeliveryCaller(ctx, request))
    return odCancellationStep(ctx, request, reply, 'requestCancellation');
  let body: CancellationBody | undefined;
  if (name === 'requestCancellation') {
    const json = rawJson(request, true);
    if ('refused' in json) return sendError(reply, json.refused);
    // checked once, by the op's schema in orders (shape, control characters, reason length)
    body = json.value as CancellationBody | undefined;
  }
  const r = await idempotentCall(ctx, request, body, (headers) =>
    rpcCall(ctx, request, ORDER_OPS.action, { params: { orderId, action: name }, body, headers }),
  );
  return writeRpcReply(reply, r);
}

/** Public routes served by the orders service: GET order and the seven lifecycle actions. */
export const orderRoutes: RouteModule = (app, ctx) => {
  app.get(
    '/v1/orders/:orderId',
    {
      schema: {
        params,
        operationId: 'getOrder',
        tags: ['orders'],
        summary: 'Get an order (scope orders:read)',
        security: [{ bearer: [] }],
        response: { 200: json('The order', orderSchema), 404: responses.orderNotFound },
      },
      onRequest: bearer(ctx, 'orders:read'),
      config: { openDelivery: 'order' },
    },
    (request, reply) =>
      forward(ctx, request, reply, ORDER_OPS.get, {
        params: { orderId: request.params.orderId },
        // the profile hook renders the standard Order from this view
        ...(isOpenDeliveryCaller(ctx, request) ? { query: { view: 'open-delivery' as const } } : {}),
      }),
  );
  // actions accept any (or no) body: requestCancellation parses its optional JSON itself
  app.register(async (sub) => {
    const zsub = rawBodyRoutes(sub);
    for (const name of ORDER_ACTIONS) {
      zsub.post(
        `/v1/orders/:orderId/${name}`,
        {
          schema: {
            params,
            operationId: name,
            tags: ['orders'],
            summary: `Order action ${name}`,
            description:
              name === 'requestCancellation'
                ? `Optional JSON body { reason?: string (max ${MAX_CANCELLATION_REASON}; longer answers 400 invalid_cancellation_reason), code?: string (max 100, ignored) }, no control characters. Immediate cancellation. Body max 64 KiB.`
                : 'No body (any body is ignored; max 64 KiB). Optional Idempotency-Key header (max 128 characters).',
            security: [{ bearer: [] }],
            ...(EXTENSION_ACTIONS.has(name) ? { 'x-extension': true } : {}),
            response: {
              202: json(
                'Accepted: the order’s situation after the action (`already_applied` is success)',
                actionResponseSchema,
              ),
              400: responses.badRequest,
              404: responses.orderNotFound,
              409: responses.conflict,
              422: responses.invalidTransition,
            },
            // documents the cancellation body; it is read and checked by `action` (raw text body)
            ...(name === 'requestCancellation' ? { body: cancellationBodySchema.optional() } : {}),
          },
          validatorCompiler: rawBodyValidator,
          onRequest: bearer(ctx, 'orders:write'),
          config: { openDelivery: 'accepted' },
        },
        (request, reply) => action(ctx, request, reply, name),
      );
    }
  });
};
