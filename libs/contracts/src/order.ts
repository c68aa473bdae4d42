import { z } from 'zod';
import { addressLines } from './address.ts';
import { ORDER_TYPES, PAYMENT_METHODS, SITUATIONS } from './codes.ts';
import { COURIER_EVENT_TYPES, ORDER_CHANNELS } from './events.ts';
import { GUID_PATTERN } from './ids.ts';
import { BYTES, COUNT, jsonBytes, refuseControlCharacters, TEXT, text } from './limits.ts';

/**
 * Orders service contract: situations, actions, RPC ops (served at `names(prefix).rpc('orders', op)`),
 * the public Order shape and the admin intake body. Events leave the service on the order-event
 * stream (`OrderEventMessage` in events.ts, JetStream msgID = eventId).
 */
export {
  ORDER_ACTIONS,
  ORDER_TYPES,
  type OrderAction,
  type OrderType,
  PAYMENT_METHODS,
  SITUATIONS,
  type Situation,
} from './codes.ts';
export const ORDER_TIMINGS = ['INSTANT', 'SCHEDULED'] as const;
export const FEE_TYPES = ['DELIVERY', 'DELIVERY_FEE', 'SERVICE_FEE', 'TIP'] as const;
export const FEE_RECEIVERS = ['MERCHANT', 'MARKETPLACE', 'LOGISTIC_SERVICES'] as const;
export const DISCOUNT_TARGETS = ['CART', 'DELIVERY_FEE', 'ITEM'] as const;
export const SPONSORS = ['MARKETPLACE', 'MERCHANT'] as const;
export const DELIVERED_BY = ['MERCHANT', 'MARKETPLACE'] as const;
export const TAKEOUT_MODES = ['DEFAULT', 'PICKUP_AREA'] as const;
export const INDOOR_MODES = ['DEFAULT', 'PLACE', 'TAB'] as const;
/** `OFFLINE`/`PENDING` count as pending (paid on delivery); `ONLINE`/`PREPAID` as prepaid. */
export const PAYMENT_TYPES = ['OFFLINE', 'ONLINE', 'PREPAID', 'PENDING'] as const;

/** Default pt-BR reason when requestCancellation carries none. */
export const DEFAULT_CANCELLATION_REASON = 'Pedido cancelado pelo estabelecimento.';
export const MAX_CANCELLATION_REASON = 500;

// ---------------------------------------------------------------- public Order (SPEC "Order")
// The schemas are the contract: the types below are inferred from them, the OpenAPI document is
// generated from them (`meta.id` names the component) and the contract tests check served bodies
// against that document. An absent value is `null`, never omitted (SPEC Conventions).

const guidOut = z.string().regex(GUID_PATTERN);
const timestamp = z.string().describe('ISO 8601, UTC, suffix Z');

export const moneySchema = z
  .object({ value: z.number(), currency: z.literal('BRL') })
  .meta({ id: 'Money', example: { value: 42.5, currency: 'BRL' } });
export type Money = z.infer<typeof moneySchema>;

/** `202` body of an action (extension: the standard's 202 has no body). */
export const actionResponseSchema = z
  .object({
    status: z
      .enum(['accepted', 'already_applied'])
      .describe('already_applied: the order was already in the requested state (success, not an error)'),
    situation: z.enum(SITUATIONS).describe('the order state after the action'),
  })
  .meta({
    id: 'ActionResponse',
    'x-extension': true,
    example: { status: 'accepted', situation: 'ACCEPTED' },
  });
export type ActionResponse = z.infer<typeof actionResponseSchema>;

export const orderOptionSchema = z.object({
  id: z.string(),
  index: z.number().int().nullable(),
  name: z.string(),
  externalCode: z.string(),
  quantity: z.number(),
  unit: z.string().nullable(),
  unitPrice: moneySchema,
  price: moneySchema,
  groupName: z.string().nullable(),
});
export const orderItemSchema = z.object({
  id: guidOut,
  index: z.number().int().nullable(),
  name: z.string(),
  externalCode: z.string(),
  unit: z.string().nullable(),
  ean: z.string().nullable(),
  quantity: z.number(),
  specialInstructions: z.string().nullable(),
  unitPrice: moneySchema,
  optionsPrice: moneySchema,
  totalPrice: moneySchema,
  options: z.array(orderOptionSchema),
});
export const orderFeeSchema = z.object({
  name: z.string(),
  type: z.enum(FEE_TYPES),
  receivedBy: z.enum(FEE_RECEIVERS),
  price: moneySchema,
});
export const orderDiscountSchema = z.object({
  amount: moneySchema,
  target: z.enum(DISCOUNT_TARGETS),
  targetId: z.string().nullable(),
  sponsorshipValues: z.array(
    z.object({ name: z.enum(SPONSORS), amount: moneySchema, discountCode: z.string().nullable() }),
  ),
});
export const paymentMethodSchema = z.object({
  value: z.number(),
  currency: z.literal('BRL'),
  method: z.enum(PAYMENT_METHODS),
  methodInfo: z.string(),
  type: z.enum(PAYMENT_TYPES),
  changeFor: z.number().nullable(),
  brand: z.string().nullable(),
  transaction: z.unknown().describe('as given by the ordering channel (free-form), or null'),
});
export const deliveryAddressSchema = z.object({
  ...addressLines,
  complement: z.string().nullable(),
  reference: z.string().nullable(),
  formattedAddress: z.string().nullable(),
  coordinates: z.object({ latitude: z.number(), longitude: z.number() }),
});
const BRL = (value: number) => ({ value, currency: 'BRL' as const });
/** The example of the OpenAPI document (checked against the schema in the gateway's openapi test). */
const ORDER_EXAMPLE = {
  id: '6f1d2c3b-4a5e-4f60-8a7b-9c0d1e2f3a4b',
  displayId: '4242',
  type: 'DELIVERY',
  orderTiming: 'INSTANT',
  createdAt: '2026-09-19T12:00:00.000Z',
  preparationStartDateTime: '2026-09-19T12:00:00.000Z',
  merchant: { id: '5e1c3c6a-1b2d-4e5f-8a9b-0c1d2e3f4a5b', name: 'Pizzaria Aurora' },
  customer: {
    id: '0c9a7b1e-2d3f-4a5b-8c6d-7e8f9a0b1c2d',
    name: 'Ana Souza',
    phone: { number: '11999990000', extension: null },
    documentNumber: null,
    email: null,
    ordersCountOnMerchant: 3,
  },
  items: [
    {
      id: '1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d',
      index: 0,
      name: 'Pizza Margherita',
      externalCode: 'PZ-1',
      unit: 'UN',
      ean: null,
      quantity: 1,
      specialInstructions: 'Sem cebola',
      unitPrice: BRL(45),
      optionsPrice: BRL(8),
      totalPrice: BRL(53),
      options: [
        {
          id: 'borda-catupiry',
          index: 0,
          name: 'Borda de catupiry',
          externalCode: 'B1',
          quantity: 1,
          unit: null,
          unitPrice: BRL(8),
          price: BRL(8),
          groupName: 'Borda',
        },
      ],
    },
  ],
  otherFees: [{ name: 'Taxa de entrega', type: 'DELIVERY', receivedBy: 'MERCHANT', price: BRL(5) }],
  discounts: null,
  total: { items: BRL(53), otherFees: BRL(5), discount: BRL(0), orderAmount: BRL(58) },
  payments: {
    prepaid: 0,
    pending: 58,
    methods: [
      {
        value: 58,
        currency: 'BRL',
        method: 'CREDIT',
        methodInfo: 'Cartão de crédito',
        type: 'OFFLINE',
        changeFor: null,
        brand: null,
        transaction: null,
      },
    ],
  },
  delivery: {
    deliveryDateTime: null,
    estimatedDeliveryDateTime: '2026-09-19T12:45:00.000Z',
    deliveredBy: 'MERCHANT',
    deliveryAddress: {
      country: 'BR',
      state: 'RJ',
      city: 'Rio de Janeiro',
      district: 'Botafogo',
      street: 'Rua Voluntários da Pátria',
      number: '45',
      postalCode: '22270-000',
      complement: 'Apto 302',
      reference: 'Portaria 24 h',
      formattedAddress: 'Rua Voluntários da Pátria, 45, Apto 302, Botafogo - Rio de Janeiro, RJ',
      coordinates: { latitude: -22.9519, longitude: -43.1857 },
    },
  },
  takeout: null,
  indoor: null,
  schedule: null,
  extraInfo: null,
  test: false,
};
export const orderSchema = z
  .object({
    id: guidOut,
    displayId: z.string(),
    type: z.enum(ORDER_TYPES),
    orderTiming: z.enum(ORDER_TIMINGS),
    createdAt: timestamp,
    preparationStartDateTime: timestamp.describe(
      'equals createdAt for INSTANT, schedule.scheduledDateTimeStart for SCHEDULED',
    ),
    merchant: z.object({ id: guidOut, name: z.string() }),
    customer: z.object({
      id: guidOut,
      name: z.string(),
      phone: z.object({ number: z.string(), extension: z.string().nullable() }),
      documentNumber: z.string().nullable(),
      email: z.string().nullable(),
      ordersCountOnMerchant: z.number().nullable(),
    }),
    items: z.array(orderItemSchema),
    otherFees: z.array(orderFeeSchema),
    discounts: z.array(orderDiscountSchema).nullable(),
    total: z.object({
      items: moneySchema,
      otherFees: moneySchema,
      discount: moneySchema,
      orderAmount: moneySchema,
    }),
    payments: z.object({
      prepaid: z.number(),
      pending: z.number(),
      methods: z.array(paymentMethodSchema),
    }),
    delivery: z
      .object({
        deliveryDateTime: timestamp.nullable(),
        estimatedDeliveryDateTime: timestamp.nullable(),
        deliveredBy: z.enum(DELIVERED_BY),
        deliveryAddress: deliveryAddressSchema,
      })
      .nullable(),
    takeout: z.object({ mode: z.enum(TAKEOUT_MODES), takeoutDateTime: timestamp }).nullable(),
    indoor: z
      .object({
        mode: z.enum(INDOOR_MODES),
        indoorDateTime: timestamp,
        place: z.string().nullable(),
        tab: z.string().nullable(),
      })
      .nullable(),
    schedule: z.object({ scheduledDateTimeStart: timestamp, scheduledDateTimeEnd: timestamp }).nullable(),
    extraInfo: z.string().nullable(),
    test: z.boolean().describe('true for orders of a test store (extension)'),
  })
  .meta({
    id: 'Order',
    description: 'SPEC "Order" (GET /v1/orders/{orderId}); absent values are null.',
    example: ORDER_EXAMPLE,
  });
export type Order = z.infer<typeof orderSchema>;
export type OrderOption = z.infer<typeof orderOptionSchema>;
export type OrderItem = z.infer<typeof orderItemSchema>;
export type OrderFee = z.infer<typeof orderFeeSchema>;
export type OrderDiscount = z.infer<typeof orderDiscountSchema>;
export type PaymentMethod = z.infer<typeof paymentMethodSchema>;
export type DeliveryAddress = z.infer<typeof deliveryAddressSchema>;

// ---------------------------------------------------------------- admin intake (channels)

const guid = z.string().regex(GUID_PATTERN, 'must be a GUID');
const isoDate = z.iso.datetime({ offset: true });
/** bounds keep every amount inside the numeric(14,2) columns: a client mistake is a 400, never a 500 */
const amount = z.number().nonnegative().max(100_000_000);
const qty = z.number().positive().max(100_000);
const name = text(TEXT.name).min(1);
const code = text(TEXT.code);
const ref = text(TEXT.id).min(1);
const note = text(TEXT.note).nullable().optional();
/** Money in: a number or `{ value, currency? }` (currency is always BRL). */
export const moneyIn = z.union([amount, z.object({ value: amount, currency: z.literal('BRL').optional() })]);

/** Intake `origin` (extraInfo's origin marker): no brackets or line breaks. */
export const originIn = z
  .string()
  .trim()
  .min(1)
  .max(60)
  .regex(/^[^[\]\r\n]+$/, 'must not contain [, ] or line breaks');

const optionIn = z.union([
  z.object({ optionId: ref, quantity: qty.default(1) }),
  z.object({
    id: ref.optional(),
    name,
    externalCode: code.default(''),
    quantity: qty.default(1),
    unit: code.nullable().optional(),
    unitPrice: moneyIn,
    groupName: text(TEXT.name).nullable().optional(),
  }),
]);

/** An item: by menu reference `{ itemId, quantity, options: [{ optionId }] }` or given in full. */
export const itemIn = z.union([
  z.object({
    itemId: ref,
    quantity: qty.default(1),
    specialInstructions: note,
    options: z
      .array(z.object({ optionId: ref, quantity: qty.default(1) }))
      .max(COUNT.itemOptions)
      .default([]),
  }),
  z.object({
    id: guid.optional(),
    name,
    externalCode: code.default(''),
    unit: z.enum(['UN', 'KG', 'L', 'OZ', 'LB', 'GAL']).nullable().optional(),
    ean: code.nullable().optional(),
    quantity: qty.default(1),
    specialInstructions: note,
    unitPrice: moneyIn,
    options: z.array(optionIn).max(COUNT.itemOptions).default([]),
  }),
]);
export type ItemIn = z.infer<typeof itemIn>;

/** Items of one order: per-item and per-order option counts (the order must render below 1 MiB). */
const itemsIn = z
  .array(itemIn)
  .min(1)
  .max(COUNT.orderItems)
  .refine(
    (items) => items.reduce((n, it) => n + (it.options?.length ?? 0), 0) <= COUNT.orderOptions,
    `no máximo ${COUNT.orderOptions} opções por pedido`,
  );

export const customerIn = z.object({
  id: guid.optional(),
  name,
  phone: z.object({
    number: text(TEXT.phone).min(1),
    extension: text(TEXT.phone).nullable().optional(),
  }),
  documentNumber: text(TEXT.document).nullable().optional(),
  email: text(TEXT.email).nullable().optional(),
  ordersCountOnMerchant: z.number().int().nonnegative().max(1_000_000_000).nullable().optional(),
});

const line = text(TEXT.addressLine);
export const deliveryAddressIn = z.object({
  country: text(TEXT.name).min(2).default('BR'),
  state: text(TEXT.name).min(1),
  city: text(TEXT.name).min(1),
  district: text(TEXT.name).min(1),
  street: line.min(1),
  number: text(TEXT.addressNumber).min(1),
  postalCode: text(TEXT.postalCode).min(1),
  complement: line.nullable().optional(),
  reference: line.nullable().optional(),
  formattedAddress: text(TEXT.formattedAddress).nullable().optional(),
  coordinates: z.object({ latitude: z.number().min(-90).max(90), longitude: z.number().min(-180).max(180) }),
});

export const deliveryIn = z.object({
  deliveredBy: z.enum(DELIVERED_BY).default('MERCHANT'),
  deliveryAddress: deliveryAddressIn.optional(),
  estimatedDeliveryDateTime: isoDate.nullable().optional(),
  deliveryDateTime: isoDate.nullable().optional(),
});

export const feeIn = z.object({
  name,
  type: z.enum(FEE_TYPES),
  receivedBy: z.enum(FEE_RECEIVERS).default('MERCHANT'),
  price: moneyIn,
});

export const discountIn = z.object({
  amount: moneyIn,
  target: z.enum(DISCOUNT_TARGETS).default('CART'),
  targetId: text(TEXT.id).nullable().optional(),
  sponsorshipValues: z
    .array(
      z.object({
        name: z.enum(SPONSORS),
        amount: moneyIn,
        discountCode: code.nullable().optional(),
      }),
    )
    .max(COUNT.sponsorships)
    .optional(),
});

const feesIn = z.array(feeIn).max(COUNT.orderFees);
const discountsIn = z.array(discountIn).max(COUNT.orderDiscounts);

export const paymentMethodIn = z.object({
  value: amount,
  currency: z.literal('BRL').optional(),
  method: z.enum(PAYMENT_METHODS),
  methodInfo: text(TEXT.methodInfo).optional(),
  type: z.enum(PAYMENT_TYPES),
  changeFor: amount.nullable().optional(),
  brand: code.nullable().optional(),
  /** free-form, stored and served as given: bounded by its JSON size */
  transaction: z
    .unknown()
    .refine(
      (t) => jsonBytes(t) <= BYTES.paymentTransaction,
      `transaction com mais de ${BYTES.paymentTransaction} bytes em JSON`,
    )
    .optional(),
});
export const paymentsIn = z.object({
  prepaid: amount.optional(),
  pending: amount.optional(),
  methods: z.array(paymentMethodIn).min(1).max(COUNT.paymentMethods),
});

export const scheduleIn = z.object({
  scheduledDateTimeStart: isoDate,
  scheduledDateTimeEnd: isoDate.optional(),
});
export const takeoutIn = z.object({
  mode: z.enum(TAKEOUT_MODES).default('DEFAULT'),
  takeoutDateTime: isoDate.optional(),
});
export const indoorIn = z.object({
  mode: z.enum(INDOOR_MODES).default('DEFAULT'),
  indoorDateTime: isoDate.optional(),
  place: text(TEXT.name).nullable().optional(),
  tab: text(TEXT.name).nullable().optional(),
});

/** An order's content: what intake takes and an edit may change, each part optional. */
const orderContentIn = {
  items: itemsIn.optional(),
  customer: customerIn.optional(),
  delivery: deliveryIn.optional(),
  takeout: takeoutIn.optional(),
  indoor: indoorIn.optional(),
  otherFees: feesIn.optional(),
  discounts: discountsIn.optional(),
  payments: paymentsIn.optional(),
  extraInfo: text(TEXT.note).nullable().optional(),
};

/** POST /admin/v1/merchants/{merchantId}/orders: everything but `type` has a sample default. */
export const orderIntakeSchema = z.object({
  type: z.enum(ORDER_TYPES),
  orderTiming: z.enum(ORDER_TIMINGS).optional(),
  schedule: scheduleIn.optional(),
  channel: z.enum(ORDER_CHANNELS).default('DIGITAL_MENU'),
  /** who placed the order through the channel (e.g. a marketplace's name); see extraInfo */
  origin: originIn.optional(),
  paymentPending: z.boolean().default(false),
  displayId: text(TEXT.displayId).min(1).optional(),
  ...orderContentIn,
});
export type OrderIntake = z.infer<typeof orderIntakeSchema>;

/** PATCH /admin/v1/orders/{orderId}: content edit (MODIFIED). Payments may be omitted when the
 * order has a single payment method: it follows the new amount. */
export const orderEditSchema = z
  // discounts: null removes them
  .object({ ...orderContentIn, discounts: discountsIn.nullable().optional() })
  .refine((o) => Object.keys(o).length > 0, { message: 'nothing to edit' });
export type OrderEdit = z.infer<typeof orderEditSchema>;

export const cancelSchema = z.object({
  by: z.enum(['CUSTOMER', 'MERCHANT']),
  reason: text(MAX_CANCELLATION_REASON).optional(),
});

/**
 * Body of `POST /v1/orders/{orderId}/requestCancellation` (optional): `reason` up to 500 characters
 * (SPEC; longer answers 400 invalid_cancellation_reason), `code` ignored but bounded.
 */
export const cancellationBodySchema = z.object({
  reason: text(MAX_CANCELLATION_REASON).nullable().optional(),
  code: code.nullable().optional(),
});
export type CancellationBody = z.input<typeof cancellationBodySchema>;

/**
 * What the orders `action` ops take (requestCancellation's body; other actions none), checked once
 * by the bus layer: an object, no control character in any key or string, `code` bounded. The
 * 500-character limit of `reason` is the orders handler's (SPEC's 400 invalid_cancellation_reason).
 */
export const cancellationInputSchema = z
  .object(
    {
      reason: z.string().nullable().optional(),
      code: code.nullable().optional(),
    },
    { error: 'O corpo deve ser um objeto JSON.' },
  )
  .loose()
  .superRefine(refuseControlCharacters)
  .optional();

/**
 * Courier tracking (`POST /admin/v1/orders/{orderId}/courier`). The event's metadata is
 * `{ delivery: <this delivery block> }`:
 * `{ courier: { id, name, phone, vehicle: { type, licensePlate } } | null,
 *    route: { id, stopIndex, totalStops } | null,
 *    stop: { status: PENDING|EN_ROUTE|ARRIVED|DELIVERED|FAILED, reason } | null,
 *    location: { latitude, longitude } | null, estimatedDeliveryDateTime | null, trackingUrl | null }`
 * (every key present, null when not given).
 */
export const courierDeliverySchema = z.object({
  courier: z
    .object({
      id: text(TEXT.id).nullable().optional(),
      name,
      phone: text(TEXT.phone).nullable().optional(),
      vehicle: z
        .object({
          type: code.min(1),
          licensePlate: text(TEXT.licensePlate).nullable().optional(),
        })
        .nullable()
        .optional(),
    })
    .nullable()
    .optional(),
  route: z
    .object({
      id: text(TEXT.id).nullable().optional(),
      stopIndex: z.number().int().nonnegative().nullable().optional(),
      totalStops: z.number().int().positive().nullable().optional(),
    })
    .nullable()
    .optional(),
  stop: z
    .object({
      status: z.enum(['PENDING', 'EN_ROUTE', 'ARRIVED', 'DELIVERED', 'FAILED']),
      reason: text(TEXT.reason).nullable().optional(),
    })
    .nullable()
    .optional(),
  location: z
    .object({ latitude: z.number().min(-90).max(90), longitude: z.number().min(-180).max(180) })
    .nullable()
    .optional(),
  estimatedDeliveryDateTime: isoDate.nullable().optional(),
  trackingUrl: text(TEXT.url).nullable().optional(),
});
export const courierUpdateSchema = z.object({
  eventType: z.enum(COURIER_EVENT_TYPES),
  delivery: courierDeliverySchema.default({}),
});
export type CourierUpdate = z.infer<typeof courierUpdateSchema>;
