import {
  type Attributes,
  type Context,
  context,
  isSpanContextValid,
  type Link,
  propagation,
  ROOT_CONTEXT,
  type Span,
  SpanKind,
  SpanStatusCode,
  trace,
} from '@opentelemetry/api';
import type { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { EDGE_SAMPLED_ROOT } from './edge.ts';

export type { Context, Span };
export { SpanKind };

/**
 * Tracing is configured only by the standard OTEL_* variables and is off unless an OTLP endpoint
 * is set. Off, every helper here returns after one boolean test: no span objects, no context.
 */
let enabled = false;
let provider: NodeTracerProvider | undefined;
/** probability that the operator's sampler samples a new root (OTEL_TRACES_SAMPLER[_ARG]) */
let edgeRatio = 1;

type Env = Record<string, string | undefined>;

export function tracingConfigured(env: Env = process.env): boolean {
  if (env.OTEL_SDK_DISABLED === 'true' || env.OTEL_TRACES_EXPORTER === 'none') return false;
  return Boolean(env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT || env.OTEL_EXPORTER_OTLP_ENDPOINT);
}

export function tracingEnabled(): boolean {
  return enabled;
}

/**
 * Starts the process's tracer provider once (W3C trace context, AsyncLocalStorage context, batch
 * export over OTLP/HTTP from a worker thread: `http/protobuf` by default, `http/json` when OTEL_EXPORTER_OTLP[_TRACES]_PROTOCOL
 * says so). Sampling follows OTEL_TRACES_SAMPLER/OTEL_TRACES_SAMPLER_ARG (default parent-based,
 * always on); a public listener draws it at the edge (`sampleAtEdge`). Returns false when not
 * configured. The SDK is imported here, only when configured (~150 modules that an untraced process
 * never loads).
 */
export async function initTracing(
  serviceName: string,
  env: Env = process.env,
  warn?: (m: string) => void,
): Promise<boolean> {
  if (provider) return true;
  if (!tracingConfigured(env)) return false;
  const protocol =
    env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL ?? env.OTEL_EXPORTER_OTLP_PROTOCOL ?? 'http/protobuf';
  if (protocol !== 'http/json' && protocol !== 'http/protobuf')
    warn?.(`OTEL_EXPORTER_OTLP_PROTOCOL=${protocol} not supported; using http/protobuf`);
  // two chunks of the bundles: the worker thread loads export-worker.ts alone, not the SDK
  const [{ startProvider }, { WorkerSpanExporter }] = await Promise.all([
    import('./provider.ts'),
    import('./export-worker.ts'),
  ]);
  if (!provider) {
    // a concurrent call may have started it meanwhile
    const exporter = new WorkerSpanExporter(protocol === 'http/json' ? protocol : 'http/protobuf', env, warn);
    const started = startProvider(serviceName, exporter, env, warn);
    provider = started.provider;
    edgeRatio = started.rootRatio;
  }
  enabled = true;
  return true;
}

/**
 * Head sampling of a request at the edge (a public listener), drawn before any span object, id or
 * context exists: one `Math.random()` against the operator's root probability. The 1 - ratio of
 * requests it refuses cost nothing more: no span anywhere (the services make spans only under a
 * sampled parent and never start a root for a bus request), no context, no headers.
 */
export function sampleAtEdge(): boolean {
  return enabled && edgeRatio > 0 && (edgeRatio >= 1 || Math.random() < edgeRatio);
}

/** Benchmarks: switches the hooks off and on again in one process (after initTracing). */
export function setTracingEnabled(on: boolean): void {
  enabled = on && provider !== undefined;
}

/** Flushes and stops export (process exit). */
export async function shutdownTracing(): Promise<void> {
  const p = provider;
  provider = undefined;
  enabled = false;
  await p?.shutdown().catch(() => {});
}

/** Pushes finished spans out now (tests). */
export async function flushTracing(): Promise<void> {
  await provider?.forceFlush();
}

export type Carrier = { get(key: string): string | undefined | null; set?(key: string, value: string): void };

const getter = {
  keys: () => [],
  get: (c: Carrier, k: string) => c.get(k) ?? undefined,
};
const setter = { set: (c: Carrier, k: string, v: string) => c.set?.(k, v) };

/** The context carried by headers (`traceparent`, `tracestate`), or the active one when none. */
export function extractContext(carrier: Carrier | undefined): Context {
  if (!enabled || !carrier) return context.active();
  return propagation.extract(ROOT_CONTEXT, carrier, getter);
}

/**
 * What a request arriving at a listener starts under, or undefined when the edge does not sample it
 * (`sampleAtEdge`; tracing off: always undefined). Sampled: a new root, so the decision is the
 * operator's alone (OTEL_TRACES_SAMPLER), never an untrusted caller's sampled flag, with a link to the
 * span context its headers carry (when valid) so the caller's trace id stays correlated.
 */
export function edgeEntry(carrier: Carrier | undefined): { parent: Context; links: Link[] } | undefined {
  if (!sampleAtEdge()) return undefined;
  const sc = carrier && trace.getSpanContext(propagation.extract(ROOT_CONTEXT, carrier, getter));
  // the link keeps the caller's ids only: its sampled flag and trace state decide nothing here
  return {
    parent: EDGE_SAMPLED_ROOT,
    links:
      sc && isSpanContextValid(sc)
        ? [{ context: { traceId: sc.traceId, spanId: sc.spanId, traceFlags: 0 } }]
        : [],
  };
}

/** Writes the active context's `traceparent`/`tracestate` into headers (NATS, HTTP). */
export function injectContext(carrier: Carrier, ctx?: Context): void {
  if (!enabled) return;
  propagation.inject(ctx ?? context.active(), carrier, setter);
}

/**
 * The active span when it is sampled. Child spans (RPC, SQL, Redis, publish) are made only under a
 * sampled span and context travels only with sampled traces: an unsampled request costs the root's
 * sampling decision and nothing more.
 */
export function activeSampledSpan(): Span | undefined {
  if (!enabled) return undefined;
  const s = trace.getActiveSpan();
  return s?.isRecording() ? s : undefined;
}

/** The active span's W3C traceparent (stored with an outbox row), null when off or unsampled. */
export function currentTraceparent(): string | null {
  if (!activeSampledSpan()) return null;
  const out: Record<string, string> = {};
  propagation.inject(context.active(), out);
  return out.traceparent ?? null;
}

/** Context of a stored traceparent (an outbox row's). */
export function contextFromTraceparent(traceparent: string | null | undefined): Context | undefined {
  if (!enabled || !traceparent) return undefined;
  return propagation.extract(ROOT_CONTEXT, { traceparent });
}

export interface SpanOptions {
  kind?: SpanKind;
  attributes?: Attributes;
  /** spans of other traces this one relates to (an untrusted caller's) */
  links?: Link[];
  /** parent (default: the active context) */
  parent?: Context;
}

/**
 * Runs `fn` inside a span of tracer `scope` (the service's name): the span ends when `fn` settles
 * and records a thrown error. Tracing off: just `fn()`.
 */
export function withSpan<T>(
  scope: string,
  name: string,
  opts: SpanOptions,
  fn: (span: Span | undefined) => Promise<T> | T,
): Promise<T> | T {
  const parent = opts.parent ?? context.active();
  const span = startSpan(scope, name, { ...opts, parent });
  if (!span) return fn(undefined);
  const fail = (e: unknown) => {
    span.recordException(e as Error);
    span.setStatus({ code: SpanStatusCode.ERROR, message: (e as Error)?.message });
    span.end();
    throw e;
  };
  try {
    const r = context.with(trace.setSpan(parent, span), () => fn(span));
    if (r instanceof Promise)
      return r.then((v) => {
        span.end();
        return v;
      }, fail);
    span.end();
    return r;
  } catch (e) {
    return fail(e);
  }
}

/** A span started now and ended by the caller (HTTP requests); undefined when tracing is off. */
export function startSpan(scope: string, name: string, opts: SpanOptions = {}): Span | undefined {
  if (!enabled) return undefined;
  const span = trace
    .getTracer(scope)
    .startSpan(
      name,
      { kind: opts.kind, attributes: opts.attributes, links: opts.links },
      opts.parent ?? context.active(),
    );
  if (span.isRecording()) return span;
  span.end(); // not sampled: nothing below it is traced
  return undefined;
}

/** A context from headers when they carry a sampled trace (else undefined: nothing to continue). */
export function sampledContext(carrier: Carrier | undefined): Context | undefined {
  // most requests carry no context (unsampled at the edge): no propagator work for them
  if (!enabled || !carrier?.get('traceparent')) return undefined;
  const ctx = propagation.extract(ROOT_CONTEXT, carrier, getter);
  const sc = trace.getSpanContext(ctx);
  return sc && sc.traceFlags & 1 ? ctx : undefined;
}

/** Runs `fn` with `span` active (its children and log lines attach to it). */
export function runInSpan<T>(span: Span | undefined, fn: () => T, parent?: Context): T {
  if (!span) return fn();
  return context.with(trace.setSpan(parent ?? context.active(), span), fn);
}

export function markError(span: Span | undefined, message?: string): void {
  span?.setStatus({ code: SpanStatusCode.ERROR, message });
}

/** pino mixin: `trace_id`/`span_id` of the active span on every log line. */
export function traceLogFields(): Record<string, string> {
  if (!enabled) return {};
  const s = trace.getActiveSpan()?.spanContext();
  return s ? { trace_id: s.traceId, span_id: s.spanId } : {};
}
