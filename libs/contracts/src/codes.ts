/**
 * The platform's code lists and the limits the merchant panel's page checks too, without zod: the
 * page imports them through `browser.ts` (`@od/contracts/browser`), the schemas of the other files
 * import them from here. A code list lives once, here; its schema (`z.enum(...)`) lives beside the
 * shape that uses it.
 */

/** Situations an order leaves only by moving on: the overview's "open orders". */
export const OPEN_SITUATIONS = [
  'PENDING_PAYMENT',
  'PENDING',
  'ACCEPTED',
  'PREPARING',
  'READY',
  'DELIVERY',
] as const;
/** An order's situation (orders' state machine): the open ones, then the two final ones. */
export const SITUATIONS = [...OPEN_SITUATIONS, 'DONE', 'CANCELLED'] as const;
export type Situation = (typeof SITUATIONS)[number];

/** Public lifecycle actions (`POST /v1/orders/{orderId}/{action}`), also the panel's clicks. */
export const ORDER_ACTIONS = [
  'confirm',
  'startPreparation',
  'readyForPickup',
  'dispatch',
  'pickedUp',
  'delivered',
  'requestCancellation',
] as const;
export type OrderAction = (typeof ORDER_ACTIONS)[number];

export const ORDER_TYPES = ['DELIVERY', 'TAKEOUT', 'INDOOR'] as const;
export type OrderType = (typeof ORDER_TYPES)[number];

export const PAYMENT_METHODS = [
  'CREDIT',
  'DEBIT',
  'MEAL_VOUCHER',
  'FOOD_VOUCHER',
  'DIGITAL_WALLET',
  'PIX',
  'CASH',
  'CREDIT_DEBIT',
  'COUPON',
  'REDEEM',
  'PREPAID_REDEEM',
  'OTHER',
] as const;

export const STANDARD_EVENT_TYPES = [
  'CREATED',
  'CONFIRMED',
  'READY_FOR_PICKUP',
  'DISPATCHED',
  'CONCLUDED',
  'CANCELLED',
] as const;
export const COURIER_EVENT_TYPES = [
  'COURIER_ASSIGNED',
  'COURIER_ROUTE_STARTED',
  'COURIER_PICKED_UP',
  'COURIER_ARRIVED',
  'COURIER_DELIVERED',
  'COURIER_DELIVERY_FAILED',
  'COURIER_UNASSIGNED',
  'COURIER_ROUTE_COMPLETED',
] as const;
/**
 * Events of the Open Delivery cancellation handshake. They exist only in the standard: the
 * recipient rule gives them to OPEN_DELIVERY credentials only, so a SPEC credential never sees one.
 */
export const HANDSHAKE_EVENT_TYPES = [
  'CANCELLATION_REQUESTED',
  'CANCELLATION_REQUEST_DENIED',
  'ORDER_CANCELLATION_REQUEST',
  'CANCELLED_DENIED',
] as const;
export type HandshakeEventType = (typeof HANDSHAKE_EVENT_TYPES)[number];
export const EVENT_TYPES = [
  ...STANDARD_EVENT_TYPES,
  'PREPARING',
  'MODIFIED',
  ...COURIER_EVENT_TYPES,
  ...HANDSHAKE_EVENT_TYPES,
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

export const DELIVERY_MODES = ['POLLING', 'WEBHOOK', 'BOTH'] as const;
export type DeliveryMode = (typeof DELIVERY_MODES)[number];
/**
 * A credential's API profile: `SPEC` (default) serves the platform's documented shapes;
 * `OPEN_DELIVERY` serves the official Open Delivery 1.4.0 contract for that credential's calls,
 * events and pushes. Set at creation; it cannot be edited (a new credential is required).
 */
export const API_PROFILES = ['SPEC', 'OPEN_DELIVERY'] as const;
export type ApiProfile = (typeof API_PROFILES)[number];
export const CREDENTIAL_STATUSES = ['ACTIVE', 'PAUSED', 'REVOKED'] as const;
export type CredentialStatus = (typeof CREDENTIAL_STATUSES)[number];

/** The admin events list's acknowledgment filter. */
export const ADMIN_FEED_STATES = ['all', 'pending', 'acknowledged'] as const;

export const MERCHANT_STATUSES = ['AVAILABLE', 'UNAVAILABLE'] as const;
export type MerchantStatus = (typeof MERCHANT_STATUSES)[number];
export const SERVICE_TYPES = ['DELIVERY', 'TAKEOUT'] as const;
export type ServiceType = (typeof SERVICE_TYPES)[number];

export const DAYS_OF_WEEK = [
  'MONDAY',
  'TUESDAY',
  'WEDNESDAY',
  'THURSDAY',
  'FRIDAY',
  'SATURDAY',
  'SUNDAY',
] as const;
export type DayOfWeek = (typeof DAYS_OF_WEEK)[number];

export const PANEL_ROLES = ['OWNER', 'STAFF'] as const;
export type PanelRole = (typeof PANEL_ROLES)[number];

/**
 * Panel password lengths (NIST SP 800-63B; the panel also refuses common breached passwords):
 * the page checks the same before sending.
 */
export const PANEL_PASSWORD_MIN = 12;
export const PANEL_PASSWORD_MAX = 128;
