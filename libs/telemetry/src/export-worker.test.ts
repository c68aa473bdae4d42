import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { type ExportResult, ExportResultCode } from '@opentelemetry/core';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { WorkerSpanExporter } from './export-worker.ts';

/** Two finished spans, as the batch processor hands them to an exporter. */
function spans(): ReadableSpan[] {
  const memory = new InMemorySpanExporter();
  const tracer = new BasicTracerProvider({
    spanProcessors: [new SimpleSpanProcessor(memory)],
  }).getTracer('export-worker-test');
  tracer.startSpan('first').end();
  tracer.startSpan('second').end();
  return memory.getFinishedSpans();
}

const endpoint = (port: number) => ({
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `http://127.0.0.1:${port}/v1/traces`,
});

const exported = (e: WorkerSpanExporter, batch: ReadableSpan[]) =>
  new Promise<ExportResult>((resolve) => e.export(batch, resolve));

describe('WorkerSpanExporter', () => {
  const bodies: { type: string | undefined; body: string }[] = [];
  const receiver = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      bodies.push({ type: req.headers['content-type'], body: Buffer.concat(chunks).toString() });
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  let exporter: WorkerSpanExporter | undefined;

  beforeAll(() => new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r)));
  afterAll(() => new Promise<void>((r) => receiver.close(() => r())));
  afterEach(async () => {
    await exporter?.shutdown();
    bodies.length = 0;
  });

  it('sends the batch serialized in the process from its worker thread (http/json)', async () => {
    const { port } = receiver.address() as AddressInfo;
    exporter = new WorkerSpanExporter('http/json', endpoint(port));
    const result = await exported(exporter, spans());
    expect(result.code).toBe(ExportResultCode.SUCCESS);
    expect(bodies).toHaveLength(1);
    expect(bodies[0].type).toBe('application/json');
    const names = JSON.parse(bodies[0].body).resourceSpans[0].scopeSpans[0].spans.map(
      (s: { name: string }) => s.name,
    );
    expect(names).toEqual(['first', 'second']);
  });

  it('sends protobuf by default, and a second batch through the same worker', async () => {
    const { port } = receiver.address() as AddressInfo;
    exporter = new WorkerSpanExporter('http/protobuf', endpoint(port));
    expect((await exported(exporter, spans())).code).toBe(ExportResultCode.SUCCESS);
    expect((await exported(exporter, spans())).code).toBe(ExportResultCode.SUCCESS);
    expect(bodies.map((b) => b.type)).toEqual(['application/x-protobuf', 'application/x-protobuf']);
    expect(bodies[0].body).toContain('second');
  });

  it('fails a batch the collector does not take, without hanging', async () => {
    const closed = http.createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const { port } = closed.address() as AddressInfo;
    await new Promise<void>((r) => closed.close(() => r()));
    exporter = new WorkerSpanExporter('http/json', {
      ...endpoint(port),
      OTEL_EXPORTER_OTLP_TRACES_TIMEOUT: '300',
    });
    expect((await exported(exporter, spans())).code).toBe(ExportResultCode.FAILED);
  });
});
