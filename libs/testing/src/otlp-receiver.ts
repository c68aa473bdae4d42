import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedSpan {
  /** the tracer's scope name (our services name their tracer after themselves) */
  scope: string;
  /** resource attribute service.name */
  service: string;
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  /** spans of other traces this one links to (an untrusted caller's, at a public listener) */
  links?: { traceId: string; spanId: string }[];
  name: string;
  kind: number;
}

interface OtlpJson {
  resourceSpans?: {
    resource?: { attributes?: { key: string; value: { stringValue?: string } }[] };
    scopeSpans?: { scope?: { name?: string }; spans?: Omit<ReceivedSpan, 'scope' | 'service'>[] }[];
  }[];
}

/**
 * A tiny OTLP/HTTP receiver (http/json): collects the spans posted to /v1/traces. Tests point
 * OTEL_EXPORTER_OTLP_ENDPOINT at `url`.
 */
export async function startOtlpReceiver(): Promise<{
  url: string;
  spans: ReceivedSpan[];
  close(): Promise<void>;
}> {
  const spans: ReceivedSpan[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (d) => {
      body += d;
    });
    req.on('end', () => {
      if (
        req.method === 'POST' &&
        req.url === '/v1/traces' &&
        /json/.test(req.headers['content-type'] ?? '')
      ) {
        const data = JSON.parse(body) as OtlpJson;
        for (const rs of data.resourceSpans ?? []) {
          const service =
            rs.resource?.attributes?.find((a) => a.key === 'service.name')?.value.stringValue ?? '';
          for (const ss of rs.scopeSpans ?? [])
            for (const s of ss.spans ?? []) spans.push({ ...s, scope: ss.scope?.name ?? '', service });
        }
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      } else res.writeHead(415).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    spans,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
