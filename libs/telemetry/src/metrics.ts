import { Counter, collectDefaultMetrics, Gauge, Histogram, register } from 'prom-client';

/**
 * Every metric of the platform, defined once per process (prom-client's global registry).
 * Labels are bounded: route templates, op names, outcomes; never a store, credential or order id.
 * Code records through the small functions below, so call sites stay one line.
 */
export const registry = register;

let defaultsStarted = false;
/** process_*, nodejs_eventloop_lag_*, nodejs_gc_duration_seconds, heap and handles (once per process). */
export function startDefaultMetrics(): void {
  if (defaultsStarted) return;
  defaultsStarted = true;
  collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: 20 });
}

const FAST = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const SLOW = [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300];

const httpDuration = new Histogram({
  name: 'od_http_request_duration_seconds',
  help: 'HTTP requests (gateway public and admin, panel) by listener, route template, method and status',
  labelNames: ['listener', 'route', 'method', 'status'],
  buckets: FAST,
});
/** `route` is the route template (`/orders/:orderId`), `unmatched` when no route matched. */
export function recordHttp(listener: string, route: string, method: string, status: number, seconds: number) {
  httpDuration.observe({ listener, route, method, status: String(status) }, seconds);
}

export type RpcOutcome = 'ok' | 'client_error' | 'server_error' | 'unavailable' | 'error';
export function rpcOutcome(status: number): RpcOutcome {
  return status >= 500 ? 'server_error' : status >= 400 ? 'client_error' : 'ok';
}
const rpcClient = new Histogram({
  name: 'od_rpc_client_duration_seconds',
  help: 'RPC calls made, by op (service.op) and outcome',
  labelNames: ['op', 'outcome'],
  buckets: FAST,
});
const rpcServer = new Histogram({
  name: 'od_rpc_server_duration_seconds',
  help: 'RPC requests handled, by op (service.op) and outcome',
  labelNames: ['op', 'outcome'],
  buckets: FAST,
});
/** `subject` is `<prefix>.rpc.<service>.<op>`; the label keeps `<service>.<op>`. */
export function rpcOp(subject: string): string {
  const i = subject.indexOf('.rpc.');
  return i < 0 ? subject : subject.slice(i + 5);
}
export function recordRpcClient(subject: string, outcome: RpcOutcome, seconds: number) {
  rpcClient.observe({ op: rpcOp(subject), outcome }, seconds);
}
export function recordRpcServer(subject: string, outcome: RpcOutcome, seconds: number) {
  rpcServer.observe({ op: rpcOp(subject), outcome }, seconds);
}

const rateLimit = new Counter({
  name: 'od_rate_limit_decisions_total',
  help: 'Rate-limit decisions at the gateway by policy (allowed, limited)',
  labelNames: ['policy', 'decision'],
});
const rateLimitFallback = new Counter({
  name: 'od_rate_limit_fallback_total',
  help: "Rate-limit checks decided by the gateway replica's own count because Redis did not answer in time, by policy",
  labelNames: ['policy'],
});
export function recordRateLimit(policy: string, allowed: boolean) {
  rateLimit.inc({ policy, decision: allowed ? 'allowed' : 'limited' });
}
export function recordRateLimitFallback(policy: string) {
  rateLimitFallback.inc({ policy });
}

const idempotency = new Counter({
  name: 'od_idempotency_total',
  help: 'Keyed requests by outcome: stored (first answer), replayed, conflict (409: key reused or in progress)',
  labelNames: ['outcome'],
});
export function recordIdempotency(outcome: 'stored' | 'replayed' | 'conflict') {
  idempotency.inc({ outcome });
}

const tokens = new Counter({
  name: 'od_tokens_total',
  help: 'Access tokens issued and refused (reason = OAuth error code)',
  labelNames: ['outcome', 'reason'],
});
export function recordToken(outcome: 'issued' | 'refused', reason = '') {
  tokens.inc({ outcome, reason });
}

const outboxLag = new Histogram({
  name: 'od_outbox_publish_lag_seconds',
  help: 'Time from an outbox row commit to its JetStream publish ack',
  buckets: SLOW,
});
const outboxPublished = new Counter({
  name: 'od_outbox_published_total',
  help: 'Outbox rows published (ok) or failed to publish (error)',
  labelNames: ['outcome'],
});
/** `createdAt` is the row's commit time (ISO or epoch ms). */
export function recordOutboxPublish(createdAt: string | number | Date | null, ok = true) {
  outboxPublished.inc({ outcome: ok ? 'ok' : 'error' });
  if (ok && createdAt != null)
    outboxLag.observe(Math.max(0, (Date.now() - new Date(createdAt).getTime()) / 1000));
}

const ordersExpired = new Counter({
  name: 'od_orders_expired_total',
  help: 'PENDING orders cancelled by the platform after their confirmation timeout',
});
/** One order cancelled by the confirmation sweep (orders). */
export function recordOrderExpired() {
  ordersExpired.inc();
}

const redeliveries = new Counter({
  name: 'od_consumer_redeliveries_total',
  help: 'JetStream messages received again (delivery count > 1), by consumer',
  labelNames: ['consumer'],
});
const processingLag = new Histogram({
  name: 'od_consumer_processing_lag_seconds',
  help: 'Time from an event being stored in JetStream to its processing, by consumer',
  labelNames: ['consumer'],
  buckets: SLOW,
});
const consumed = new Counter({
  name: 'od_consumer_messages_total',
  help: 'JetStream messages handled by consumer and outcome (ack, nak, term)',
  labelNames: ['consumer', 'outcome'],
});
/** Call once per handled message: `info` is the JsMsg's info (`deliveryCount`, `timestampNanos`). */
export function recordConsumed(
  consumer: string,
  info: { deliveryCount: number; timestampNanos: number },
  outcome: 'ack' | 'nak' | 'term' = 'ack',
) {
  consumed.inc({ consumer, outcome });
  if (info.deliveryCount > 1) redeliveries.inc({ consumer });
  processingLag.observe({ consumer }, Math.max(0, Date.now() / 1000 - info.timestampNanos / 1e9));
}

const webhookAttempts = new Histogram({
  name: 'od_webhook_attempt_duration_seconds',
  help: 'Webhook deliveries attempted, by outcome (success, http_error, network_error, refused)',
  labelNames: ['outcome'],
  buckets: SLOW,
});
const webhookDeactivated = new Counter({
  name: 'od_webhook_deactivated_total',
  help: 'Webhook URLs deactivated after too many failures',
});
export function recordWebhookAttempt(outcome: string, seconds: number) {
  webhookAttempts.observe({ outcome }, seconds);
}
export function recordWebhookDeactivated() {
  webhookDeactivated.inc();
}

// ---- gauges read at scrape time from registered sources (the database, JetStream, pools) ----

type Sample = [labels: Record<string, string>, value: number];
type Source = () => Promise<Sample[]> | Sample[];

/** A gauge whose value is summed over sources registered at run time (one per service instance). */
function sourcedGauge(name: string, help: string, labelNames: string[] = []) {
  const sources = new Set<Source>();
  new Gauge({
    name,
    help,
    labelNames,
    async collect() {
      this.reset();
      for (const s of sources) {
        try {
          for (const [labels, value] of await s()) this.inc(labels, value);
        } catch {
          // a source that cannot answer (database down) reports nothing; readiness says why
        }
      }
    },
  });
  return (source: Source): (() => void) => {
    sources.add(source);
    return () => sources.delete(source);
  };
}

/** Returns an unregister function; sources run at every scrape, so keep them to one cheap query. */
export const gaugeSources = {
  outboxBacklog: sourcedGauge('od_outbox_backlog', 'Outbox rows not yet published'),
  outboxOldest: sourcedGauge(
    'od_outbox_oldest_unpublished_seconds',
    'Age of the oldest unpublished outbox row (0 when none)',
  ),
  outboxSetAside: sourcedGauge(
    'od_outbox_set_aside',
    'Outbox rows set aside after repeated publish failures (they wait for an operator)',
  ),
  consumerPending: sourcedGauge(
    'od_consumer_pending',
    'Messages of the stream not yet delivered to the consumer',
    ['consumer'],
  ),
  consumerAckPending: sourcedGauge(
    'od_consumer_ack_pending',
    'Messages delivered to the consumer and not yet acknowledged',
    ['consumer'],
  ),
  feedPendingEvents: sourcedGauge(
    'od_feed_pending_events',
    'Feed entries not yet acknowledged by their integrators (all credentials), held ones excluded',
  ),
  feedHeldEvents: sourcedGauge(
    'od_feed_held_events',
    'Events held until an earlier event of their order is stored (served anyway after 60 s)',
  ),
  pool: sourcedGauge('od_pg_pool_connections', 'PostgreSQL pool connections by state', ['pool', 'state']),
};

/** Pool use: total, idle, and callers waiting for a connection. */
export function registerPool(
  name: string,
  pool: { totalCount: number; idleCount: number; waitingCount: number },
): () => void {
  return gaugeSources.pool(() => [
    [{ pool: name, state: 'total' }, pool.totalCount],
    [{ pool: name, state: 'idle' }, pool.idleCount],
    [{ pool: name, state: 'waiting' }, pool.waitingCount],
  ]);
}

export async function metricsText(): Promise<{ contentType: string; body: string }> {
  return { contentType: registry.contentType, body: await registry.metrics() };
}
