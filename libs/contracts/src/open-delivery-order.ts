import { z } from 'zod';
import { addressLines } from './address.ts';
import { ORDER_CHANNELS } from './events.ts';
import {
  DELIVERED_BY,
  DISCOUNT_TARGETS,
  FEE_RECEIVERS,
  INDOOR_MODES,
  ORDER_TIMINGS,
  ORDER_TYPES,
  orderSchema,
  PAYMENT_METHODS,
  SPONSORS,
  TAKEOUT_MODES,
} from './order.ts';

/**
 * The Open Delivery 1.4.0 shapes an OPEN_DELIVERY credential receives (components/schemas/Order
 * and Event of the official document, which stays the reference: the contract tests validate
 * served bodies against the YAML itself). These schemas type the renderer (`toOdOrder`,
 * `toOdEvent` in @od/opendelivery): optional values are omitted, never null.
 */
export const OD_EVENT_TYPE_VALUES = [
  'CREATED',
  'CONFIRMED',
  'DISPATCHED',
  'READY_FOR_PICKUP',
  'PICKUP_AREA_ASSIGNED',
  'DELIVERED',
  'CONCLUDED',
  'CANCELLATION_REQUESTED',
  'CANCELLATION_REQUEST_DENIED',
  'CANCELLED',
  'ORDER_CANCELLATION_REQUEST',
  'CANCELLED_DENIED',
] as const;

const uuid = z.string().regex(/^[0-9a-fA-F]{8}-([0-9a-fA-F]{4}-){3}[0-9a-fA-F]{12}$/);
const price = z.object({ value: z.number(), currency: z.string().regex(/^[A-Z]{3}$/) });
const UNITS = ['UN', 'KG', 'L', 'OZ', 'LB', 'GAL'] as const;

export const odOrderSchema = z.object({
  id: uuid,
  type: z.enum(ORDER_TYPES),
  displayId: z.string(),
  sourceAppId: uuid.optional(),
  salesChannel: z.string().optional(),
  createdAt: z.string(),
  lastEvent: z.enum(OD_EVENT_TYPE_VALUES).optional(),
  orderTiming: z.enum(ORDER_TIMINGS),
  preparationStartDateTime: z.string(),
  merchant: z.object({ id: z.string(), name: z.string() }),
  items: z.array(
    z.object({
      id: uuid,
      index: z.number().int().optional(),
      name: z.string(),
      externalCode: z.string(),
      unit: z.enum(UNITS),
      ean: z.string().optional(),
      quantity: z.number(),
      specialInstructions: z.string().optional(),
      unitPrice: price,
      optionsPrice: price,
      totalPrice: price,
      options: z.array(
        z.object({
          id: uuid,
          index: z.number().int().optional(),
          name: z.string(),
          externalCode: z.string(),
          unit: z.string(),
          quantity: z.number(),
          unitPrice: price,
          totalPrice: price,
        }),
      ),
    }),
  ),
  otherFees: z.array(
    z.object({
      name: z.string(),
      type: z.enum(['DELIVERY_FEE', 'SERVICE_FEE', 'TIP']),
      receivedBy: z.enum(FEE_RECEIVERS),
      price,
    }),
  ),
  discounts: z
    .array(
      z.object({
        amount: price,
        target: z.enum(DISCOUNT_TARGETS),
        targetId: z.string().optional(),
        sponsorshipValues: z.array(
          z.object({ name: z.enum(SPONSORS), amount: price, discountCode: z.string().optional() }),
        ),
      }),
    )
    .optional(),
  total: z.object({ itemsPrice: price, otherFees: price, discount: price, orderAmount: price }),
  payments: z.object({
    prepaid: z.number(),
    pending: z.number(),
    methods: z.array(
      z.object({
        value: z.number(),
        currency: z.string(),
        type: z.enum(['PREPAID', 'PENDING']),
        method: z.enum(PAYMENT_METHODS),
        brand: z.string().optional(),
        methodInfo: z.string().optional(),
        changeFor: z.number().optional(),
      }),
    ),
  }),
  customer: z.object({
    id: uuid,
    name: z.string(),
    documentNumber: z.string().optional(),
    phone: z.object({ number: z.string(), extension: z.string().optional() }),
    email: z.string().optional(),
    ordersCountOnMerchant: z.number(),
  }),
  schedule: z.object({ scheduledDateTimeStart: z.string(), scheduledDateTimeEnd: z.string() }).optional(),
  delivery: z
    .object({
      deliveredBy: z.enum(DELIVERED_BY),
      deliveryAddress: z.object({
        ...addressLines,
        complement: z.string().optional(),
        reference: z.string().optional(),
        formattedAddress: z.string(),
        coordinates: z.object({ latitude: z.number(), longitude: z.number() }),
      }),
      estimatedDeliveryDateTime: z.string(),
      deliveryDateTime: z.string().optional(),
    })
    .optional(),
  takeout: z.object({ mode: z.enum(TAKEOUT_MODES), takeoutDateTime: z.string() }).optional(),
  indoor: z
    .object({
      mode: z.enum(INDOOR_MODES),
      indoorDateTime: z.string(),
      place: z.string().optional(),
      tab: z.string().optional(),
    })
    .optional(),
  sendDelivered: z.boolean(),
  sendTracking: z.boolean(),
  extraInfo: z.string().optional(),
});
export type OdOrder = z.infer<typeof odOrderSchema>;

/**
 * What the orders service answers an OPEN_DELIVERY caller's GET order: the stored SPEC document
 * plus the facts only the standard's Order carries (`lastEvent`: the order's last standard event
 * type, null before any; `salesChannel`: the ordering channel).
 */
export const odOrderViewSchema = orderSchema.extend({
  lastEvent: z.string().nullable(),
  salesChannel: z.enum(ORDER_CHANNELS),
});
export type OdOrderView = z.infer<typeof odOrderViewSchema>;

export const odEventSchema = z.object({
  eventId: uuid,
  eventType: z.enum(OD_EVENT_TYPE_VALUES),
  orderId: uuid,
  orderURL: z.string(),
  createdAt: z.string(),
  sourceAppId: uuid.optional(),
  metadata: z.record(z.string(), z.unknown()).optional(),
});
export type OdEvent = z.infer<typeof odEventSchema>;
