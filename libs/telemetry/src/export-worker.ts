// Span export from a worker thread. The process serializes each batch (OTLP protobuf or JSON, the
// SDK's own serializers) and posts the bytes; the worker sends them with the SDK's own OTLP/HTTP
// delegate (OTEL_EXPORTER_OTLP_* settings, timeout, retries, concurrency bound). Why a thread: an
// exporter's HTTP socket in the service's isolate made node's shared socket/stream code that every
// PostgreSQL, NATS and Redis write runs through polymorphic (`--trace-deopt`: "wrong map"
// deoptimizations in Socket/Writable/writeOrBuffer), whatever the ratio; its own isolate keeps that
// code monomorphic (docs/operations.md, "Tracing"). This module is both sides: loaded by the worker
// (`workerData[MARK]`), it runs `serve`.

import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { type ExportResult, ExportResultCode } from '@opentelemetry/core';
import { JsonTraceSerializer, ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import type { ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace-base';

const MARK = 'odTraceExport';
export type Protocol = 'http/json' | 'http/protobuf';

type Command = { kind: 'export'; bytes: Uint8Array; spans: number } | { kind: 'flush' | 'shutdown' };
type Request = Command & { id: number };
type Reply = { id: number; ok: boolean; error?: string };

/** The worker's heap: a batch is at most the SDK's 512 spans (a few hundred KB serialized). */
const WORKER_LIMITS = { maxOldGenerationSizeMb: 24, maxYoungGenerationSizeMb: 4 };

/** A SpanExporter whose network half runs in a worker thread (started on the first batch). */
export class WorkerSpanExporter implements SpanExporter {
  readonly #protocol: Protocol;
  readonly #serializer: typeof JsonTraceSerializer | typeof ProtobufTraceSerializer;
  readonly #env: Record<string, string | undefined>;
  readonly #warn: ((m: string) => void) | undefined;
  #worker: Worker | undefined;
  #next = 0;
  readonly #pending = new Map<number, (r: Reply) => void>();

  /** `env`: the worker's environment, where the delegate reads OTEL_EXPORTER_OTLP_* */
  constructor(protocol: Protocol, env: Record<string, string | undefined>, warn?: (m: string) => void) {
    this.#protocol = protocol;
    this.#serializer = protocol === 'http/json' ? JsonTraceSerializer : ProtobufTraceSerializer;
    this.#env = env;
    this.#warn = warn;
  }

  export(spans: ReadableSpan[], done: (result: ExportResult) => void): void {
    let bytes: Uint8Array | undefined;
    try {
      bytes = this.#serializer.serializeRequest(spans);
    } catch (e) {
      done({ code: ExportResultCode.FAILED, error: e as Error });
      return;
    }
    if (!bytes) {
      done({ code: ExportResultCode.FAILED, error: new Error('spans could not be serialized') });
      return;
    }
    // copied, not transferred: the serializer's bytes may be a view of a pooled buffer
    this.#send({ kind: 'export', bytes, spans: spans.length }, (r) =>
      done(
        r.ok
          ? { code: ExportResultCode.SUCCESS }
          : { code: ExportResultCode.FAILED, error: new Error(r.error ?? 'export failed') },
      ),
    );
  }

  forceFlush(): Promise<void> {
    if (!this.#worker) return Promise.resolve();
    return new Promise((resolve) => this.#send({ kind: 'flush' }, () => resolve()));
  }

  async shutdown(): Promise<void> {
    const worker = this.#worker;
    if (!worker) return;
    await new Promise<void>((resolve) => this.#send({ kind: 'shutdown' }, () => resolve()));
    this.#worker = undefined;
    await worker.terminate();
  }

  #send(request: Command, reply: (r: Reply) => void): void {
    const worker = this.#worker ?? this.#start();
    const id = ++this.#next;
    this.#pending.set(id, reply);
    worker.postMessage({ ...request, id });
  }

  #start(): Worker {
    const worker = new Worker(new URL(import.meta.url), {
      workerData: { [MARK]: true, protocol: this.#protocol },
      env: this.#env,
      resourceLimits: WORKER_LIMITS,
      stdout: false,
      stderr: false,
    });
    worker.unref();
    worker.on('message', (r: Reply) => {
      const reply = this.#pending.get(r.id);
      this.#pending.delete(r.id);
      reply?.(r);
    });
    // a worker that died fails what it held; the next batch starts a new one
    const lost = (why: string) => {
      if (this.#worker === worker) this.#worker = undefined;
      for (const reply of this.#pending.values()) reply({ id: 0, ok: false, error: why });
      this.#pending.clear();
    };
    worker.on('error', (e) => {
      this.#warn?.(`trace export worker failed: ${e.message}`);
      lost(e.message);
    });
    worker.on('exit', (code) => lost(`trace export worker exited (${code})`));
    this.#worker = worker;
    return worker;
  }
}

/** The worker's side: OTLP/HTTP requests of already-serialized batches. */
async function serve(protocol: Protocol): Promise<void> {
  const port = parentPort;
  if (!port) return;
  const { createOtlpHttpExportDelegate, convertLegacyHttpOptions } = await import(
    '@opentelemetry/otlp-exporter-base/node-http'
  );
  const json = protocol === 'http/json';
  const serializer = json ? JsonTraceSerializer : ProtobufTraceSerializer;
  type Batch = { bytes: Uint8Array; spans: number };
  const delegate = createOtlpHttpExportDelegate<Batch, unknown>(
    convertLegacyHttpOptions({}, 'TRACES', 'v1/traces', {
      'Content-Type': json ? 'application/json' : 'application/x-protobuf',
    }),
    { serializeRequest: (b) => b.bytes, deserializeResponse: (d) => serializer.deserializeResponse(d) },
    'otlp_http_span_exporter',
    { name: 'span', countItems: (b) => b.spans },
    undefined,
  );
  const reply = (r: Reply) => port.postMessage(r);
  port.on('message', (m: Request) => {
    if (m.kind === 'export')
      delegate.export({ bytes: m.bytes, spans: m.spans }, (r) =>
        reply({ id: m.id, ok: r.code === ExportResultCode.SUCCESS, error: r.error?.message }),
      );
    else
      (m.kind === 'flush' ? delegate.forceFlush() : delegate.shutdown()).then(
        () => reply({ id: m.id, ok: true }),
        (e: Error) => reply({ id: m.id, ok: false, error: e.message }),
      );
  });
}

if (!isMainThread && workerData?.[MARK]) void serve(workerData.protocol as Protocol);
