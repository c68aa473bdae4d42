// The OpenTelemetry SDK and its OTLP export: imported by `initTracing` only when tracing is
// configured (libs/telemetry/README.md, "Loading"); a process without it never loads them.
import {
  defaultResource,
  detectResources,
  envDetector,
  resourceFromAttributes,
} from '@opentelemetry/resources';
import { BatchSpanProcessor, type SpanExporter } from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { EdgeAwareSampler, samplingFromEnv } from './sampling.ts';

/**
 * A registered tracer provider exporting batches to `exporter` (the OTLP/HTTP one of
 * export-worker.ts),
 * sampling as OTEL_TRACES_SAMPLER[_ARG] of `env` say, and the probability that gives a new root (what
 * the edge draws against).
 */
export function startProvider(
  serviceName: string,
  exporter: SpanExporter,
  env: Record<string, string | undefined>,
  warn?: (m: string) => void,
): { provider: NodeTracerProvider; rootRatio: number } {
  const resource = defaultResource()
    .merge(resourceFromAttributes({ 'service.name': serviceName }))
    .merge(detectResources({ detectors: [envDetector] }));
  const sampling = samplingFromEnv(env, warn);
  const provider = new NodeTracerProvider({
    resource,
    sampler: new EdgeAwareSampler(sampling.sampler),
    spanProcessors: [new BatchSpanProcessor(exporter)],
  });
  provider.register();
  return { provider, rootRatio: sampling.rootRatio };
}
