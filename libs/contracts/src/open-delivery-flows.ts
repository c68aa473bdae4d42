import { z } from 'zod';
import { GUID_PATTERN } from './ids.ts';
import { TEXT, text } from './limits.ts';

/**
 * The Open Delivery 1.4.0 order flows that SPEC does not have, served to OPEN_DELIVERY credentials
 * (and driven from the admin API on the ordering application's side):
 * - the cancellation handshake: a party asks, the other party accepts or denies;
 * - `validateCode` (the customer's delivery confirmation code) and `tracking` (delivery updates
 *   sent by a point of sale that delivers itself).
 * Shapes and enumerations are those of the official document (components/schemas RequestCancelled,
 * RequestDenied, OrderTracking/DeliveryTrackingInfo), with the platform's limits on every string.
 */

/** Events of the handshake (codes.ts: OPEN_DELIVERY credentials only). */
export { HANDSHAKE_EVENT_TYPES, type HandshakeEventType } from './codes.ts';

/** The point of sale's steps (`POST /v1/orders/{orderId}/{step}`, OPEN_DELIVERY credentials only). */
export const HANDSHAKE_STEPS = ['requestCancellation', 'acceptCancellation', 'denyCancellation'] as const;
export type HandshakeStep = (typeof HANDSHAKE_STEPS)[number];

/** The ordering application's answer to a point of sale's request (admin API). */
export const CANCELLATION_DECISIONS = ['accept', 'deny'] as const;
export type CancellationDecision = (typeof CANCELLATION_DECISIONS)[number];

/**
 * Which party's cancellation request is waiting for the other party's answer:
 * `MERCHANT` = the point of sale asked (requestCancellation), the ordering application decides;
 * `ORDERING_APP` = the customer or the platform asked (ORDER_CANCELLATION_REQUEST), the point of
 * sale decides (acceptCancellation / denyCancellation).
 */
export const PENDING_CANCELLATIONS = ['NONE', 'MERCHANT', 'ORDERING_APP'] as const;
export type PendingCancellation = (typeof PENDING_CANCELLATIONS)[number];

/** RequestCancelled.code: reasons a merchant gives. */
export const MERCHANT_CANCELLATION_CODES = [
  'SYSTEMIC_ISSUES',
  'DUPLICATE_APPLICATION',
  'UNAVAILABLE_ITEM',
  'RESTAURANT_WITHOUT_DELIVERY_PERSON',
  'OUTDATED_MENU',
  'ORDER_OUTSIDE_THE_DELIVERY_AREA',
  'BLOCKED_CUSTOMER',
  'OUTSIDE_DELIVERY_HOURS',
  'INTERNAL_DIFFICULTIES_OF_THE_RESTAURANT',
  'RISK_AREA',
  'DELIVERY_PROBLEM',
] as const;
/** RequestDenied.code: why a merchant refuses the ordering application's request. */
export const CANCELLATION_DENIAL_CODES = ['DISH_ALREADY_DONE', 'OUT_FOR_DELIVERY'] as const;

const reason = text(TEXT.reason);
const guid = z.string().regex(GUID_PATTERN);

/** Body of an OPEN_DELIVERY `requestCancellation` (RequestCancelled: reason, code and mode required). */
export const odCancellationRequestSchema = z.object({
  reason,
  code: z.enum(MERCHANT_CANCELLATION_CODES),
  mode: z.enum(['AUTO', 'MANUAL']),
  outOfStockItems: z.array(guid).max(100).optional(),
  invalidItems: z.array(guid).max(100).optional(),
});
export type OdCancellationRequest = z.infer<typeof odCancellationRequestSchema>;

/** Body of `denyCancellation` (RequestDenied: reason and code required). */
export const odCancellationDenialSchema = z.object({
  reason,
  code: z.enum(CANCELLATION_DENIAL_CODES),
});
export type OdCancellationDenial = z.infer<typeof odCancellationDenialSchema>;

/**
 * `POST /admin/v1/orders/{orderId}/cancellation-request`: the customer (code
 * CONSUMER_CANCELLATION_REQUESTED) or the ordering application itself (OTHER_CANCELLATION_REASON)
 * asks the point of sale to cancel.
 */
export const adminCancellationRequestSchema = z.object({
  by: z.enum(['CUSTOMER', 'PLATFORM']),
  reason: reason.optional(),
});
/** `POST /admin/v1/orders/{orderId}/cancellation-request/{accept|deny}`: the platform's decision. */
export const adminCancellationDecisionSchema = z.object({ reason: reason.optional() });

const dateTime = z.iso.datetime({ offset: true });
const url = text(TEXT.url).pipe(z.url());
const short = text(TEXT.name);

/** OrderTracking (`POST /v1/orders/{orderId}/tracking`): DeliveryTrackingInfo, bounded. */
export const orderTrackingSchema = z.object({
  deliveryTrackingInfo: z.object({
    event: z
      .object({
        type: z.enum([
          'PICKUP_ONGOING',
          'ARRIVED_AT_MERCHANT',
          'ORDER_PICKED',
          'DELIVERY_ONGOING',
          'ARRIVED_AT_CUSTOMER',
          'ORDER_DELIVERED',
          'CANCELLED',
        ]),
        message: reason.optional(),
        datetime: dateTime,
      })
      .optional(),
    problem: z
      .object({
        reason: z.enum([
          'DELIVERYPERSON_OCCURRENCE',
          'PAYMENT_PROBLEMS',
          'WRONG_PRODUCT_OR_ITEM',
          'ORDER_DELAYED',
          'ORDER_DAMAGED_OR_VIOLATED',
          'CUSTOMER_DID_NOT_PLACE_ORDER',
          'CUSTOMER_ADDRESS_UNKNOWN',
          'ORDER_MISSING_ITEMS',
          'NOBODY_TO_RECEIVE',
          'DELIVERYPERSON_WAITING_PAYMENT_FOR_ALREADY_PAID_ORDER',
          'ORDER_DELIVERED_WITHOUT_PAYMENT',
          'FRAUD_OR_THEFT',
        ]),
        message: reason.optional(),
        datetime: dateTime,
      })
      .optional(),
    vehicle: z
      .object({
        type: z.array(z.enum(['MOTORBIKE_BAG', 'MOTORBIKE_BOX', 'CAR', 'BICYCLE', 'SCOOTER', 'VUC'])).max(10),
        licencePlate: text(TEXT.licensePlate).optional(),
      })
      .optional(),
    eta: z
      .object({
        pickupEtaInMinutes: z.number().int().min(0).max(100_000).optional(),
        pickupEtaDatetime: dateTime.optional(),
        deliveryEtaInMinutes: z.number().int().min(0).max(100_000).optional(),
        deliveryEtaDatetime: dateTime.optional(),
        maxDeliveryTime: dateTime.optional(),
      })
      .optional(),
    deliveryPerson: z
      .object({ id: text(TEXT.id).optional(), name: short.optional(), pictureURL: url.optional() })
      .optional(),
    geoLocalization: z
      .object({
        latitude: z.number().min(-90).max(90).optional(),
        longitude: z.number().min(-180).max(180).optional(),
        lastAddress: z
          .object({
            country: z
              .string()
              .regex(/^[A-Z]{2}$/)
              .optional(),
            state: short.optional(),
            city: short.optional(),
            district: short.optional(),
            street: text(TEXT.addressLine).optional(),
            postalCode: text(TEXT.postalCode).optional(),
            distanceToPickup: text(TEXT.code),
            distanceToDelivery: text(TEXT.code),
            timestamp: dateTime,
          })
          .optional(),
      })
      .optional(),
    externalTrackingURL: url.optional(),
  }),
});
export type OrderTracking = z.infer<typeof orderTrackingSchema>;

/** `validateCode`'s query: `deliveryCode` (required). */
export const validateCodeQuerySchema = z.object({ deliveryCode: text(TEXT.code) });
