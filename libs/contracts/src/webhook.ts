/** Webhook delivery: the shapes the webhook service answers. Signature scheme: DESIGN "Webhook signature" (Standard Webhooks). */

/**
 * PENDING: scheduled (first attempt or a retry); DELIVERED: a 2xx was received; WEBHOOK_FAILED: four
 * attempts failed; SKIPPED: not sent (URL deactivated, credential paused/revoked, webhook mode off);
 * CLEARED: removed from the queue by "clear queue". Every non-DELIVERED event stays pollable.
 */
export const WEBHOOK_DELIVERY_STATUSES = [
  'PENDING',
  'DELIVERED',
  'WEBHOOK_FAILED',
  'SKIPPED',
  'CLEARED',
] as const;
export type WebhookDeliveryStatus = (typeof WEBHOOK_DELIVERY_STATUSES)[number];

export const WEBHOOK_TIMEOUT_MS = 10_000;
/** consecutive failed deliveries (not attempts) that deactivate a credential's URL */
export const WEBHOOK_DEACTIVATE_AFTER = 20;

export interface WebhookAttemptView {
  id: number;
  eventId: string;
  eventType: string;
  /** 1 for the original delivery, +1 per resend */
  round: number;
  /** 1..4 within the round */
  attempt: number;
  url: string;
  startedAt: string;
  durationMs: number;
  /** HTTP status, null when no response (network error, timeout, refused address) */
  statusCode: number | null;
  error: string | null;
  success: boolean;
}

export interface WebhookDeliveryView {
  eventId: string;
  eventType: string;
  status: WebhookDeliveryStatus;
  round: number;
  attempts: number;
  nextAttemptAt: string | null;
  lastStatusCode: number | null;
  lastError: string | null;
  skipReason: string | null;
  createdAt: string;
  updatedAt: string;
  deliveredAt: string | null;
}

export interface WebhookEndpointView {
  clientId: string;
  webhookUrl: string | null;
  deliveryMode: string;
  consecutiveFailures: number;
  deactivated: boolean;
  deactivatedAt: string | null;
  pending: number;
}

/**
 * Extension event type of "send a test event" (docs/api.md): posted only to the URL under test,
 * never stored, never in a feed or the order stream; real clients ignore unknown event types.
 */
export const WEBHOOK_TEST_EVENT_TYPE = 'TEST';

/** What the receiver answered to a test event (body cut at WEBHOOK_TEST_BODY_MAX bytes). */
export interface WebhookTestResult {
  eventId: string;
  url: string;
  statusCode: number | null;
  success: boolean;
  durationMs: number;
  error: string | null;
  /** the receiver's body, first WEBHOOK_TEST_BODY_MAX bytes as text */
  responseBody: string | null;
}
export const WEBHOOK_TEST_BODY_MAX = 2048;

/** A credential's webhook health for the panel's overview. */
export interface StoreWebhookHealth {
  clientId: string;
  lastDeliveredAt: string | null;
  deactivated: boolean;
  consecutiveFailures: number;
  pending: number;
}
