import { z } from 'zod';
import type { AdminOrderView, StoreSummary } from '../admin-order.ts';
import { orderListQuerySchema, orderListSchema } from '../history.ts';
import { defineOps } from '../op.ts';
import {
  adminCancellationDecisionSchema,
  adminCancellationRequestSchema,
  CANCELLATION_DECISIONS,
  HANDSHAKE_STEPS,
  odCancellationDenialSchema,
  odCancellationRequestSchema,
  orderTrackingSchema,
} from '../open-delivery-flows.ts';
import {
  actionResponseSchema,
  cancellationInputSchema,
  cancelSchema,
  courierUpdateSchema,
  ORDER_ACTIONS,
  type Order,
  orderEditSchema,
  orderIntakeSchema,
  orderSchema,
} from '../order.ts';
import { orderCardsQuerySchema, orderCardsReplySchema } from '../order-card.ts';
import { ADMIN_AND_PANEL } from '../rpc.ts';

const order = z.object({ orderId: z.string() });
/** what GET order answers: the SPEC document, or the facts the Open Delivery Order needs too */
export const ORDER_VIEWS = ['open-delivery'] as const;
/** the admin order view's history cursor (an entry id) */
const HISTORY_CURSOR = /^\d{1,18}$/;
export const adminOrderQuerySchema = z
  .object({ historyAfter: z.string().regex(HISTORY_CURSOR, 'cursor inválido').optional() })
  .optional();
const orderAction = z.object({ orderId: z.string(), action: z.enum(ORDER_ACTIONS) });

/**
 * RPC ops of the orders service. Public ops are called by a front door for a credential (the
 * store is the credential's); admin ops by the admin API.
 * - get -> 200 Order bytes | 404; list: query OrderListQuery -> 200 OrderList (history.ts) | 400; action: body { reason?, code? } (requestCancellation only) -> 202 ActionResponse
 * - adminCreate: body OrderIntake -> 201 Order + { situation, channel }; adminGet -> 200 Order + history
 * - cards: params { merchantId }, query { limit?, cursor?, orderId? } -> 200 OrderCards (the panel
 *   board: one query over a card-sized projection, newest first; `orderId` = that one card)
 * - adminAction -> as `action`, actor PANEL (+ the user when a merchant user clicks); adminPayment / adminCancel ({ by, reason? }) -> 202
 * - adminEdit: body OrderEdit -> 200; adminCourier: body CourierUpdate -> 202 { status, eventId }
 * Open Delivery flows (open-delivery-flows.ts), called by the gateway for OPEN_DELIVERY credentials:
 * - odRequestCancellation (body RequestCancelled), odAcceptCancellation (none), odDenyCancellation
 *   (body RequestDenied): the point of sale's handshake steps -> 202 ActionResponse; handshake (the
 *   three in one, `step` in params) is the previous release's, still served; validateCode: query { deliveryCode } -> 200 { orderId, deliveryCode } | 400;
 *   tracking: body OrderTracking -> 202
 * - adminCancellationRequest ({ by, reason? }) and adminCancellationDecision (accept | deny) -> 202
 */
export const ORDER_OPS = defineOps('orders', {
  /** query `view: open-delivery`: the document plus `lastEvent` and `salesChannel` (OdOrderView) */
  get: {
    name: 'get',
    callers: ['credential'],
    scope: 'orders:read',
    params: order,
    query: z.object({ view: z.enum(ORDER_VIEWS).optional() }).optional(),
    /** typing only: the order's bytes are forwarded untouched (the view adds lastEvent, salesChannel) */
    reply: orderSchema,
  },
  /**
   * GET /v1/orders (extension): the credential's store only; `includeMarketplaceOrders` is set by
   * the gateway from the credential's record (the signed request carries it), never by the client.
   */
  list: {
    name: 'list',
    callers: ['credential'],
    scope: 'orders:read',
    query: orderListQuerySchema.and(z.object({ includeMarketplaceOrders: z.boolean() })),
    reply: orderListSchema,
  },
  action: {
    name: 'action',
    callers: ['credential'],
    errorForm: 'problem',
    scope: 'orders:write',
    params: orderAction,
    body: cancellationInputSchema,
    reply: actionResponseSchema,
  },
  adminCreate: {
    name: 'admin.create',
    callers: ADMIN_AND_PANEL,
    area: 'orders',
    params: z.object({ merchantId: z.string() }),
    body: orderIntakeSchema,
    invalidMessage: 'Pedido inválido.',
    reply: z.custom<Order>(),
  },
  /** query { historyAfter? }: one page of history (README of orders, "Admin view") */
  adminGet: {
    name: 'admin.get',
    callers: ['admin', 'merchantUser', 'panel'],
    area: 'orders',
    params: order,
    query: adminOrderQuerySchema,
    reply: z.custom<AdminOrderView>(),
  },
  cards: {
    name: 'cards',
    callers: ['merchantUser', 'panel'],
    area: 'orders',
    params: z.object({ merchantId: z.string() }),
    query: orderCardsQuerySchema,
    reply: orderCardsReplySchema,
  },
  /**
   * The panel's overview: query { since } (ISO: the merchant's midnight) -> 200 StoreSummary
   * (orders and sales since then, open orders by situation); one query.
   */
  adminStoreSummary: {
    name: 'admin.storeSummary',
    callers: ADMIN_AND_PANEL,
    area: 'orders',
    params: z.object({ merchantId: z.string() }),
    query: z.object({ since: z.iso.datetime({ offset: true }) }),
    reply: z.custom<StoreSummary>(),
  },
  adminAction: {
    name: 'admin.action',
    callers: ADMIN_AND_PANEL,
    errorForm: 'admin',
    area: 'orders',
    params: orderAction,
    body: cancellationInputSchema.nullable(),
  },
  /** no body (one that an older gateway forwards is ignored) */
  adminPayment: { name: 'admin.payment', callers: ['admin'], params: order },
  adminCancel: {
    name: 'admin.cancel',
    callers: ['admin'],
    params: order,
    body: cancelSchema,
    invalidMessage: 'Cancelamento inválido.',
  },
  adminEdit: {
    name: 'admin.edit',
    callers: ['admin'],
    params: order,
    body: orderEditSchema,
    invalidMessage: 'Edição inválida.',
  },
  adminCourier: {
    name: 'admin.courier',
    callers: ['admin'],
    params: order,
    body: courierUpdateSchema,
    invalidMessage: 'Atualização de entregador inválida.',
  },
  /**
   * The three steps below in one op, its body checked by the handler: served for one release more
   * (a gateway of the previous release calls it during the rollout), then removed.
   */
  handshake: {
    name: 'handshake',
    callers: ['credential'],
    scope: 'orders:write',
    params: z.object({ orderId: z.string(), step: z.enum(HANDSHAKE_STEPS) }),
    body: z.unknown(),
  },
  odRequestCancellation: {
    name: 'od.requestCancellation',
    callers: ['credential'],
    scope: 'orders:write',
    params: order,
    body: odCancellationRequestSchema,
  },
  odAcceptCancellation: {
    name: 'od.acceptCancellation',
    callers: ['credential'],
    scope: 'orders:write',
    params: order,
  },
  odDenyCancellation: {
    name: 'od.denyCancellation',
    callers: ['credential'],
    scope: 'orders:write',
    params: order,
    body: odCancellationDenialSchema,
  },
  validateCode: {
    name: 'validateCode',
    callers: ['credential'],
    scope: 'orders:read',
    params: order,
    query: z.object({ deliveryCode: z.string() }),
  },
  tracking: {
    name: 'tracking',
    callers: ['credential'],
    errorForm: 'problem',
    scope: 'orders:write',
    params: order,
    body: orderTrackingSchema,
  },
  adminCancellationRequest: {
    name: 'admin.cancellationRequest',
    callers: ['admin'],
    errorForm: 'admin',
    params: order,
    body: adminCancellationRequestSchema,
  },
  adminCancellationDecision: {
    name: 'admin.cancellationDecision',
    callers: ['admin'],
    params: z.object({ orderId: z.string(), decision: z.enum(CANCELLATION_DECISIONS) }),
    errorForm: 'admin',
    body: adminCancellationDecisionSchema.nullable().optional(),
  },
});
