import { z } from 'zod';
import { defineOps } from '../op.ts';
import { ADMIN_AND_PANEL } from '../rpc.ts';
import type {
  StoreWebhookHealth,
  WebhookAttemptView,
  WebhookDeliveryView,
  WebhookEndpointView,
  WebhookTestResult,
} from '../webhook.ts';

const client = z.object({ clientId: z.string() });
const page = z.record(z.string(), z.string().optional()).optional();
const pageOf = <T>() => z.custom<{ items: T[]; nextCursor: string | null }>();

/** RPC ops of the webhook service behind the admin routes (ids checked by the service: 404). */
export const WEBHOOK_OPS = defineOps('webhook', {
  /** query { limit?, cursor? } -> 200 { items: WebhookAttemptView[], nextCursor } | 404 */
  attempts: {
    name: 'admin.webhookAttempts',
    callers: ADMIN_AND_PANEL,
    area: 'credentials',
    params: client,
    query: page,
    reply: pageOf<WebhookAttemptView>(),
  },
  /**
   * query { limit?, cursor?, status?, eventType?, eventIds? (comma separated, at most 200) }
   * -> 200 { items: WebhookDeliveryView[], nextCursor } | 404
   */
  deliveries: {
    name: 'admin.webhookDeliveries',
    callers: ADMIN_AND_PANEL,
    area: 'credentials',
    params: client,
    query: page,
    reply: pageOf<WebhookDeliveryView>(),
  },
  /** -> 200 WebhookEndpointView | 404 */
  status: {
    name: 'admin.webhookStatus',
    callers: ADMIN_AND_PANEL,
    area: 'credentials',
    params: client,
    reply: z.custom<WebhookEndpointView>(),
  },
  /** -> 202 WebhookDeliveryView | 404 (event unknown to the credential) | 409 */
  resend: {
    name: 'admin.webhookResend',
    callers: ADMIN_AND_PANEL,
    area: 'credentials',
    params: z.object({ clientId: z.string(), eventId: z.string() }),
    reply: z.custom<WebhookDeliveryView>(),
  },
  /** -> 200 { cleared, reactivated } | 404 */
  clearQueue: {
    name: 'admin.webhookClearQueue',
    callers: ADMIN_AND_PANEL,
    area: 'credentials',
    params: client,
  },
  /**
   * body { eventType?: 'TEST' } -> 200 WebhookTestResult: a signed TEST envelope (an extension type,
   * docs/api.md) posted once to the credential's URL now, answer shown; never stored as an event,
   * never in the feed | 404 | 409 (no webhook URL, paused, deactivated)
   */
  sendTest: {
    name: 'admin.webhookTest',
    callers: ADMIN_AND_PANEL,
    area: 'credentials',
    params: client,
    reply: z.custom<WebhookTestResult>(),
  },
  /** the panel's overview: -> 200 { items: StoreWebhookHealth[] } (credentials with a webhook); one query */
  storeHealth: {
    name: 'admin.storeWebhookHealth',
    callers: ADMIN_AND_PANEL,
    area: 'credentials',
    params: z.object({ merchantId: z.string() }),
    reply: z.custom<{ items: StoreWebhookHealth[] }>(),
  },
});
