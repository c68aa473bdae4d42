import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { context, ROOT_CONTEXT, trace } from '@opentelemetry/api';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { instrumentHttp } from './http.ts';
import { initTracing, shutdownTracing, traceLogFields } from './tracing.ts';

/**
 * The edge's head sampling on a real listener (parentbased ratio 0.5): a request it does not sample
 * starts no span (no tracer is even asked for one) and runs its handler with no context; a sampled
 * one runs under a recording server span (its log lines carrying the trace id), whatever the caller's
 * own sampled flag says.
 */
describe('instrumentHttp at an untrusted listener', () => {
  let app: FastifyInstance;
  let sink: http.Server;
  let url: string;
  beforeAll(async () => {
    sink = http.createServer((req, res) => req.resume().on('end', () => res.writeHead(200).end()));
    await new Promise<void>((r) => sink.listen(0, '127.0.0.1', r));
    const env = {
      OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${(sink.address() as AddressInfo).port}`,
      OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
      OTEL_TRACES_SAMPLER_ARG: '0.5',
    };
    expect(await initTracing('od-test', env)).toBe(true);
    app = Fastify();
    instrumentHttp(app, 'test', 'public', 'untrusted');
    app.get('/x', async () => {
      const span = trace.getActiveSpan();
      return {
        span: span?.isRecording() ?? false,
        traceId: span?.spanContext().traceId,
        rootContext: context.active() === ROOT_CONTEXT,
        logTraceId: traceLogFields().trace_id,
      };
    });
    url = await app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await app?.close();
    await shutdownTracing();
    sink?.close();
  });

  it('makes no span and no context for an unsampled request, a whole server span for a sampled one', async () => {
    // the global provider (registered once per process, whichever copy of the API asks for it)
    const provider = trace.getTracerProvider();
    const getTracer = vi.fn(provider.getTracer.bind(provider));
    provider.getTracer = getTracer;
    const seen: { span: boolean; traceId?: string; rootContext: boolean; logTraceId?: string }[] = [];
    const callerTrace = 'a'.repeat(32);
    for (let i = 0; i < 40; i++) {
      const res = await fetch(`${url}/x`, {
        headers: { traceparent: `00-${callerTrace}-${'b'.repeat(16)}-01` },
      });
      seen.push(await res.json());
    }
    delete (provider as Partial<typeof provider>).getTracer;
    const sampled = seen.filter((s) => s.span);
    const unsampled = seen.filter((s) => !s.span);
    // 0.5 each: all 40 on one side has a probability of 2 in 10^12
    expect(sampled.length).toBeGreaterThan(0);
    expect(unsampled.length).toBeGreaterThan(0);
    // one tracer lookup per span started: none for the unsampled requests
    expect(getTracer).toHaveBeenCalledTimes(sampled.length);
    expect(unsampled.every((s) => s.rootContext && s.traceId === undefined && !s.logTraceId)).toBe(true);
    // log lines written while handling a sampled request carry its trace id
    expect(sampled.every((s) => s.logTraceId === s.traceId)).toBe(true);
    // the sampled ones are our own traces (a new root each), never the caller's
    expect(sampled.every((s) => !s.rootContext && s.traceId !== callerTrace)).toBe(true);
    expect(new Set(sampled.map((s) => s.traceId)).size).toBe(sampled.length);
  });
});
