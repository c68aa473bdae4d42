import { ORDER_ACTIONS, ORDER_OPS } from '@od/contracts';
import type { RouteModule } from '../context.ts';
import { forward, rpcCall, writeRpcReply } from '../forward.ts';
import { canonicalJson, unavailableReply } from '../routes/orders.ts';

type P = { orderId: string };

/**
 * Admin routes served by the orders service (channels and the merchant panel). Bodies are validated
 * by the service (admin error form `{ error, message, errors }`). Order intake takes an optional
 * `Idempotency-Key` (same rules as the public actions, scope `admin`): the same order comes back.
 */
export const orderAdminRoutes: RouteModule = (app, ctx) => {
  app.post('/admin/v1/merchants/:merchantId/orders', async (request, reply) => {
    const { merchantId } = request.params as { merchantId: string };
    const r = await ctx.idempotency.run(request, canonicalJson(request.body ?? null), async (headers) => {
      const rpc = { params: { merchantId }, body: request.body, headers };
      return (await rpcCall(ctx, request, ORDER_OPS.adminCreate, rpc)) ?? unavailableReply(request.id);
    });
    return writeRpcReply(reply, r);
  });
  app.get('/admin/v1/orders/:orderId', (request, reply) =>
    forward(ctx, request, reply, ORDER_OPS.adminGet, {
      params: { orderId: (request.params as P).orderId },
    }),
  );
  app.patch('/admin/v1/orders/:orderId', (request, reply) =>
    forward(ctx, request, reply, ORDER_OPS.adminEdit, {
      params: { orderId: (request.params as P).orderId },
      body: request.body,
    }),
  );
  const ops = {
    payment: ORDER_OPS.adminPayment,
    cancel: ORDER_OPS.adminCancel,
    courier: ORDER_OPS.adminCourier,
  };
  for (const [path, op] of Object.entries(ops)) {
    app.post(`/admin/v1/orders/:orderId/${path}`, (request, reply) =>
      forward(ctx, request, reply, op, {
        params: { orderId: (request.params as P).orderId },
        body: request.body,
      }),
    );
  }
  for (const name of ORDER_ACTIONS) {
    app.post(`/admin/v1/orders/:orderId/${name}`, (request, reply) =>
      forward(ctx, request, reply, ORDER_OPS.adminAction, {
        params: { orderId: (request.params as P).orderId, action: name },
        body: request.body,
      }),
    );
  }
};
