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

/** A registered tracer provider exporting batches over OTLP/HTTP (`http/json` or `http/protobuf`). */
export function startProvider(
  serviceName: string,
  protocol: 'http/json' | 'http/protobuf',
): NodeTracerProvider {
  const exporter = protocol === 'http/json' ? new JsonExporter() : new ProtoExporter();
  const resource = defaultResource()
    .merge(resourceFromAttributes({ 'service.name': serviceName }))
    .merge(detectResources({ detectors: [envDetector] }));
  const provider = new NodeTracerProvider({ resource, spanProcessors: [new BatchSpanProcessor(exporter)] });
  provider.register();
  return provider;
}
