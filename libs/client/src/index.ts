/**
 * `@od/client`: the typed client of the Open Delivery order platform's API.
 *
 * ```ts
 * import { createOdClient } from '@od/client';
 * const od = createOdClient({ baseUrl, clientId, clientSecret });
 * await od.events.consume(async (event, { order }) => { ... }, { signal });
 * ```
 * @packageDocumentation
 */
export {
  type ActionOptions,
  type CallOptions,
  type ClientOptions,
  createOdClient,
  type EventsApi,
  type MerchantApi,
  type OdClient,
  type OrdersApi,
} from './client.ts';
export type { ConsumeContext, ConsumeHandler, ConsumeOptions, ConsumeStats } from './consume.ts';
export {
  OdApiError,
  OdAuthError,
  type OdErrorKind,
  OdNetworkError,
  OdRateLimitError,
  OdValidationError,
} from './errors.ts';
export { backoffMs, DEFAULT_RETRY, RETRYABLE_STATUSES, type RetryPolicy } from './retry.ts';
export {
  MemoryTokenStore,
  type StoredToken,
  TokenManager,
  type TokenManagerOptions,
  type TokenStore,
} from './tokens.ts';
export type { RetryInfo } from './transport.ts';
export type * from './types.ts';
export {
  type VerifyOptions,
  verifyWebhook,
  type WebhookHeaders,
  WebhookVerificationError,
} from './webhooks.ts';
