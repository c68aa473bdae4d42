// The OpenTelemetry SDK and its OTLP exporters: imported by `initTracing` only when tracing is
// configured (libs/telemetry/README.md, "Loading"); a process without it never loads them.
import { OTLPTraceExporter as JsonExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as ProtoExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import {
  defaultResource,
  detectResources,
  envDetector,
  resourceFromAttributes,
} from '@opentelemetry/resources';
import { BatchSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { EdgeAwareSampler, samplingFromEnv } from './sampling.ts';

/**
 * A registered tracer provider exporting batches over OTLP/HTTP (`http/json` or `http/protobuf`),
 * sampling as OTEL_TRACES_SAMPLER[_ARG] of `env` say, and the probability that gives a new root (what
 * the edge draws against).
 */
export function startProvider(
  serviceName: string,
  protocol: 'http/json' | 'http/protobuf',
  env: Record<string, string | undefined>,
  warn?: (m: string) => void,
): { provider: NodeTracerProvider; rootRatio: number } {
  const exporter = protocol === 'http/json' ? new JsonExporter() : new ProtoExporter();
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
