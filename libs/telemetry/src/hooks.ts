import { context, propagation, type Span, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import {
  recordConsumed,
  recordOutboxPublish,
  recordRpcClient,
  recordRpcServer,
  recordWebhookAttempt,
  rpcOp,
  rpcOutcome,
} from './metrics.ts';
import {
  activeSampledSpan,
  type Carrier,
  contextFromTraceparent,
  injectContext,
  runInSpan,
  sampledContext,
  startSpan,
} from './tracing.ts';

/**
 * The one- or two-line hooks the bus, the relay and the consumers call: each records its metrics
 * and, tracing on, its span, and carries the W3C context in message headers (NATS headers have the
 * `get`/`set` of a Carrier).
 */

const end = (span: Span | undefined, error?: string) => {
  if (!span) return;
  if (error) span.setStatus({ code: SpanStatusCode.ERROR, message: error });
  span.end();
};

/** Client side of one RPC: `traceHeaders()` gives the call's `traceparent`/`tracestate` (sampled traces only). */
export function rpcClientCall(subject: string) {
  const t0 = performance.now();
  const span = activeSampledSpan() && startSpan('rpc-client', rpcOp(subject), { kind: SpanKind.CLIENT });
  return {
    traceHeaders(): Record<string, string> | undefined {
      if (!span) return undefined;
      const h: Record<string, string> = {};
      propagation.inject(trace.setSpan(context.active(), span), h);
      return h;
    },
    /** status of the reply, or 'unavailable' (no responder, timeout) / 'error' */
    end(result: number | 'unavailable' | 'error') {
      const outcome = typeof result === 'number' ? rpcOutcome(result) : result;
      recordRpcClient(subject, outcome, (performance.now() - t0) / 1000);
      span?.setAttribute('od.rpc.outcome', outcome);
      end(span, outcome === 'ok' || outcome === 'client_error' ? undefined : outcome);
    },
  };
}

/** Server side of one RPC: `run` executes the handler inside a span continuing the caller's trace. */
export function rpcServerCall(scope: string, subject: string, headers: Carrier | undefined) {
  const t0 = performance.now();
  const parent = sampledContext(headers);
  const span = parent && startSpan(scope, rpcOp(subject), { kind: SpanKind.SERVER, parent });
  return {
    run: <T>(fn: () => T): T => runInSpan(span, fn, parent),
    end(status: number) {
      const outcome = rpcOutcome(status);
      recordRpcServer(subject, outcome, (performance.now() - t0) / 1000);
      span?.setAttribute('od.rpc.status', status);
      end(span, outcome === 'server_error' ? outcome : undefined);
    },
  };
}

/**
 * Publishing one outbox row: a producer span in the trace of the action that wrote the row (its
 * stored traceparent), headers carrying that context into JetStream, and the publish lag metric.
 */
export async function outboxPublish<T>(
  row: { traceparent?: string | null; created_at: string | number | Date | null },
  subject: string,
  publish: (headers: <C extends Carrier>(make: () => C) => C | undefined) => Promise<T>,
): Promise<T> {
  const parent = contextFromTraceparent(row.traceparent);
  const span = parent
    ? startSpan('orders', 'publish order-event', {
        kind: SpanKind.PRODUCER,
        parent,
        attributes: {
          'messaging.system': 'nats',
          'messaging.operation.type': 'publish',
          'messaging.destination.name': subject,
        },
      })
    : undefined;
  const headers = <C extends Carrier>(make: () => C): C | undefined => {
    if (!span || !parent) return undefined;
    const h = make();
    injectContext(h, trace.setSpan(parent, span));
    return h;
  };
  try {
    const r = await publish(headers);
    recordOutboxPublish(row.created_at, true);
    end(span);
    return r;
  } catch (e) {
    recordOutboxPublish(null, false);
    end(span, (e as Error).message);
    throw e;
  }
}

interface ConsumedMsg {
  headers?: Carrier;
  info: { deliveryCount: number; timestampNanos: number };
}

/**
 * One JetStream message taken by a consumer: a consumer span joining the publisher's trace (from
 * the message headers); `done(outcome)` ends it and records redelivery, processing lag and outcome.
 */
export function consumeMessage(consumer: string, msg: ConsumedMsg) {
  const parent = sampledContext(msg.headers);
  const span = parent
    ? startSpan(consumer, `consume ${consumer}`, {
        kind: SpanKind.CONSUMER,
        parent,
        attributes: {
          'messaging.system': 'nats',
          'messaging.operation.type': 'process',
          'messaging.consumer.group.name': consumer,
        },
      })
    : undefined;
  let finished = false;
  return {
    run: <T>(fn: () => T): T => runInSpan(span, fn, parent),
    done(outcome: 'ack' | 'nak' | 'term' = 'ack') {
      if (finished) return;
      finished = true;
      recordConsumed(consumer, msg.info, outcome);
      end(span, outcome === 'ack' ? undefined : outcome);
    },
  };
}

type QueryFn = (...args: unknown[]) => unknown;

/**
 * SQL spans: wraps `query` of every client the pool opens (pool queries, transactions, Prisma's
 * adapter all go through it). Only inside an existing trace: background jobs make no root spans.
 */
export function traceQueries(
  pool: { on(event: 'connect', fn: (client: any) => void): unknown },
  scope: string,
) {
  pool.on('connect', (client: { query: QueryFn }) => {
    const query = client.query;
    client.query = function (this: unknown, ...args: unknown[]) {
      if (!activeSampledSpan()) return query.apply(this, args);
      const first = args[0] as string | { text?: string } | undefined;
      const text = (typeof first === 'string' ? first : first?.text) ?? '';
      const op = /^\s*(\w+)/.exec(text)?.[1]?.toUpperCase() ?? 'QUERY';
      const span = startSpan(scope, op, {
        kind: SpanKind.CLIENT,
        attributes: { 'db.system.name': 'postgresql', 'db.query.text': text.slice(0, 500) },
      });
      const last = args.length - 1;
      if (typeof args[last] === 'function') {
        const cb = args[last] as (err: Error | null, res: unknown) => void;
        args[last] = (err: Error | null, res: unknown) => {
          end(span, err?.message);
          cb(err, res);
        };
        return query.apply(this, args);
      }
      const r = query.apply(this, args) as Promise<unknown> | undefined;
      if (r && typeof r.then === 'function')
        return r.then(
          (v) => {
            end(span);
            return v;
          },
          (e: Error) => {
            end(span, e.message);
            throw e;
          },
        );
      end(span);
      return r;
    };
  });
}

/** Redis spans (ioredis): one per command, inside an existing trace only. */
export function traceRedis(redis: { sendCommand: (...args: any[]) => unknown }, scope: string): void {
  const send = redis.sendCommand;
  redis.sendCommand = function (this: unknown, ...args: unknown[]) {
    if (!activeSampledSpan()) return send.apply(this, args);
    const cmd = args[0] as { name?: string; promise?: Promise<unknown> };
    const span = startSpan(scope, `redis ${cmd?.name ?? 'command'}`, {
      kind: SpanKind.CLIENT,
      attributes: { 'db.system.name': 'redis', 'db.operation.name': cmd?.name ?? '' },
    });
    cmd?.promise?.then(
      () => end(span),
      (e: Error) => end(span, e?.message),
    );
    return send.apply(this, args);
  };
}

/**
 * The consumers' one-line hook: called when a JetStream message arrives, it ends the message's span
 * and records its metrics when the message is acked, nak'ed or terminated, wherever that happens.
 */
export function observeMessage<
  M extends ConsumedMsg & { ack(): void; nak(delay?: number): void; term(reason?: string): void },
>(consumer: string, msg: M): M {
  const c = consumeMessage(consumer, msg);
  const { ack, nak, term } = msg;
  msg.ack = () => {
    c.done('ack');
    ack.call(msg);
  };
  msg.nak = (delay?: number) => {
    c.done('nak');
    nak.call(msg, delay);
  };
  msg.term = (reason?: string) => {
    c.done('term');
    term.call(msg, reason);
  };
  return msg;
}

/**
 * One outgoing webhook call: a client span (host only, never the path or query) and the attempt
 * histogram by outcome: success, http_error (answered non-2xx), network_error (refused address,
 * DNS, connection, timeout).
 */
export async function tracedWebhookCall<R extends { success: boolean; statusCode: number | null }>(
  url: string,
  send: () => Promise<R>,
): Promise<R> {
  const t0 = performance.now();
  let host = '';
  try {
    host = new URL(url).host;
  } catch {}
  const span = startSpan('webhook', 'POST webhook', {
    kind: SpanKind.CLIENT,
    attributes: { 'http.request.method': 'POST', 'server.address': host },
  });
  try {
    const r = await runInSpan(span, send);
    const outcome = r.success ? 'success' : r.statusCode ? 'http_error' : 'network_error';
    recordWebhookAttempt(outcome, (performance.now() - t0) / 1000);
    span?.setAttribute('http.response.status_code', r.statusCode ?? 0);
    end(span, r.success ? undefined : outcome);
    return r;
  } catch (e) {
    end(span, (e as Error).message);
    throw e;
  }
}
