import { readFileSync } from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import path from 'node:path';

const CERTS = path.resolve(import.meta.dirname, '..', 'certs');

/** The test CA (trusted by test processes through NODE_EXTRA_CA_CERTS, see vitest.config.ts). */
export const TEST_CA_PATH = path.join(CERTS, 'ca.pem');

export interface ReceivedRequest {
  method: string;
  path: string;
  /** lower-case header names, as node parses them */
  headers: Record<string, string>;
  /** the body exactly as received */
  rawBody: string;
  /** Date.now() when the request head arrived */
  at: number;
}

export interface ReceiverResponse {
  status?: number;
  /** milliseconds to wait before answering (a hang longer than the sender's timeout = timeout) */
  delayMs?: number;
  body?: string;
  headers?: Record<string, string>;
}

export type Responder = (req: ReceivedRequest, index: number) => ReceiverResponse;

export interface HttpsReceiver {
  /** https://127.0.0.1:<port> (append any path) */
  url: string;
  /** https://localhost:<port> */
  localhostUrl: string;
  port: number;
  requests: ReceivedRequest[];
  /** changes how the next requests are answered (default: 200, no delay) */
  respond(r: Responder | ReceiverResponse): void;
  /** resolves when at least `n` requests (optionally matching) have arrived, rejects after timeoutMs */
  waitFor(n: number, timeoutMs?: number, match?: (r: ReceivedRequest) => boolean): Promise<ReceivedRequest[]>;
  close(): Promise<void>;
}

/**
 * A local HTTPS server (certificate for 127.0.0.1/localhost signed by the test CA) recording every
 * request with headers, raw body and arrival time, answering as programmed.
 */
export async function startHttpsReceiver(initial?: Responder | ReceiverResponse): Promise<HttpsReceiver> {
  const requests: ReceivedRequest[] = [];
  let responder: Responder = toResponder(initial ?? {});
  const waiters = new Set<() => void>();
  const timers = new Set<NodeJS.Timeout>();
  const server = https.createServer(
    {
      cert: readFileSync(path.join(CERTS, 'server.pem')),
      key: readFileSync(path.join(CERTS, 'server-key.pem')),
    },
    (req, res) => {
      const at = Date.now();
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const headers: Record<string, string> = {};
        for (const [k, v] of Object.entries(req.headers)) {
          if (v !== undefined) headers[k] = Array.isArray(v) ? v.join(', ') : v;
        }
        const rec: ReceivedRequest = {
          method: req.method ?? '',
          path: req.url ?? '/',
          headers,
          rawBody: Buffer.concat(chunks).toString('utf8'),
          at,
        };
        const index = requests.length;
        requests.push(rec);
        for (const w of waiters) w();
        const r = responder(rec, index);
        const answer = () => {
          if (res.destroyed) return;
          res.writeHead(r.status ?? 200, { 'content-type': 'application/json', ...r.headers });
          res.end(r.body ?? '{}');
        };
        if (r.delayMs) {
          const t = setTimeout(() => {
            timers.delete(t);
            answer();
          }, r.delayMs);
          timers.add(t);
        } else answer();
      });
    },
  );
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `https://127.0.0.1:${port}`,
    localhostUrl: `https://localhost:${port}`,
    port,
    requests,
    respond(r) {
      responder = toResponder(r);
    },
    waitFor(n, timeoutMs = 10_000, match) {
      const pick = () => (match ? requests.filter(match) : requests);
      return new Promise((resolve, reject) => {
        const check = () => {
          const got = pick();
          if (got.length >= n) {
            waiters.delete(check);
            clearTimeout(timer);
            resolve(got);
          }
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`receiver: expected ${n} requests, got ${pick().length} after ${timeoutMs} ms`));
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
    async close() {
      for (const t of timers) clearTimeout(t);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function toResponder(r: Responder | ReceiverResponse): Responder {
  return typeof r === 'function' ? r : () => r;
}
