/**
 * `@od/contracts/browser`: what the merchant panel's page imports of the contracts, without zod
 * (its bundle stays small: a test asserts the built page holds no zod). Values come only from
 * zod-free files (codes, scopes, the role rule, webhook constants); every shape is `export type`,
 * erased at build. A file re-exported here by value must never import zod (browser.test.ts).
 */

export type * from './admin-order.ts';
export * from './codes.ts';
export type { CreatedCredential, CredentialChange } from './credential-admin.ts';
export type { CredentialRecord } from './credentials.ts';
export type { AdminFeedEntry, AdminFeedPage } from './feed.ts';
export type { Menu } from './menu.ts';
export type { AdminMerchant } from './merchant.ts';
export type { Order } from './order.ts';
export type { OrderCard, OrderCards } from './order-card.ts';
export type * from './panel-api.ts';
export { canReach, STAFF_AREAS } from './panel-roles.ts';
export { PANEL_AREAS, type PanelArea } from './rpc.ts';
export { DEFAULT_SCOPES, PANEL_SCOPES, SCOPES, type Scope, STORE_WRITE_SCOPES } from './scopes.ts';
export type { ClosedReason, ServiceHours, TimePeriods } from './store-hours.ts';
export {
  type StoreWebhookHealth,
  WEBHOOK_DELIVERY_STATUSES,
  WEBHOOK_TEST_EVENT_TYPE,
  type WebhookAttemptView,
  type WebhookDeliveryStatus,
  type WebhookDeliveryView,
  type WebhookEndpointView,
  type WebhookTestResult,
} from './webhook.ts';
