/**
 * Reference integrator for the event feed (SPEC "Integration cycle"), built on the SDK `@od/client`:
 * obtain a token, poll pending events, fetch each order, process it, acknowledge, repeat. What the
 * SDK does for it (libs/client/README.md): one token per credential shared and renewed before expiry;
 * `401` without body -> new token once; `429`/`5xx`/network errors retried with full-jitter backoff,
 * never sooner than `Retry-After`; other `4xx` never retried; deduplication by `eventId`;
 * acknowledgment only after processing; stop on `invalid_token` / `invalid_client`.
 * What this reference adds on top, as every integrator should:
 * - unknown `eventType`: log it and still acknowledge it (new types may appear without notice);
 * - an order that no longer exists for the credential (`404`): log it and acknowledge the event.
 */
import {
  type ClientOptions,
  type ConsumeStats,
  createOdClient,
  type EventEnvelope,
  OdApiError,
  type OdClient,
  type Order,
} from '@od/client';

export const KNOWN_EVENT_TYPES = new Set([
  'CREATED',
  'CONFIRMED',
  'READY_FOR_PICKUP',
  'DISPATCHED',
  'CONCLUDED',
  'CANCELLED',
  'PREPARING',
  'MODIFIED',
  'COURIER_ASSIGNED',
  'COURIER_ROUTE_STARTED',
  'COURIER_PICKED_UP',
  'COURIER_ARRIVED',
  'COURIER_DELIVERED',
  'COURIER_DELIVERY_FAILED',
  'COURIER_UNASSIGNED',
  'COURIER_ROUTE_COMPLETED',
]);

export type Log = (
  level: 'debug' | 'info' | 'warn' | 'error',
  msg: string,
  data?: Record<string, unknown>,
) => void;

export interface IntegratorOptions
  extends Pick<ClientOptions, 'baseUrl' | 'clientId' | 'clientSecret' | 'tokenStore' | 'retry' | 'fetch'> {
  /** processes one order; throwing leaves the event unacknowledged (it comes back on a later poll) */
  handle(order: Order, event: EventEnvelope): Promise<void>;
  log?: Log;
  /** events per poll (1..200, default 100) */
  limit?: number;
  /** first wait after an empty poll (doubles up to 30 s while idle) */
  idleMs?: number;
}

export interface Integrator {
  /** the SDK client (actions: `client.orders.confirm(id)`, ...) */
  client: OdClient;
  /** Polls until `signal` aborts; rejects with `OdAuthError` when the credential is paused or revoked. */
  run(signal: AbortSignal): Promise<ConsumeStats>;
}

export function createIntegrator(o: IntegratorOptions): Integrator {
  const log: Log = o.log ?? (() => {});
  const client = createOdClient({
    baseUrl: o.baseUrl,
    clientId: o.clientId,
    clientSecret: o.clientSecret,
    tokenStore: o.tokenStore,
    retry: o.retry,
    fetch: o.fetch,
    onRetry: (r) => log('warn', 'retrying', { ...r }),
  });
  return {
    client,
    run: (signal) =>
      client.events.consume(
        async (event, { order }) => {
          if (!KNOWN_EVENT_TYPES.has(event.eventType)) {
            log('warn', 'unknown eventType ignored (acknowledged)', {
              eventType: event.eventType,
              eventId: event.eventId,
            });
            return;
          }
          let current: Order;
          try {
            current = await order();
          } catch (e) {
            // 404: the order is gone for this credential; nothing will ever change that
            if (!(e instanceof OdApiError && e.status === 404)) throw e;
            log('warn', 'order not found, event acknowledged', {
              eventId: event.eventId,
              orderId: event.orderId,
            });
            return;
          }
          await o.handle(current, event);
        },
        {
          signal,
          limit: o.limit,
          idle: { minMs: o.idleMs ?? 1000 },
          onError: (e, ev) =>
            log('error', 'processing failed; event left unacknowledged', {
              eventId: ev?.eventId,
              error: String(e),
            }),
        },
      ),
  };
}
