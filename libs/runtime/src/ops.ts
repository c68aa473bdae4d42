import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { NatsConnection } from '@nats-io/transport-node';
import type { Logger } from '@od/logger';
import { metricsText, startDefaultMetrics } from '@od/telemetry';

/** A readiness check: true/false, or throws/rejects (not ready, message in the answer). */
export type ReadyCheck = () => boolean | Promise<boolean>;

export interface OpsListener {
  name: string;
  /** `http://host:port`, undefined when the listener is off (OPS_PORT unset) */
  url: string | undefined;
  /** adds a check to /readyz (bus, database, consumers attached...) */
  check(name: string, fn: ReadyCheck): void;
  /** /readyz answers 503 from now on (graceful stop: the load balancer stops sending first) */
  drain(): void;
  close(): Promise<void>;
}

const CHECK_TIMEOUT_MS = 2000;
const listeners = new Set<OpsListener>();

/** The ops listeners of this process (tests run a whole stack in one process). */
export function opsListeners(): OpsListener[] {
  return [...listeners];
}

/** SIGTERM: every ops listener of the process reports not ready before anything stops. */
export function drainAll(): void {
  for (const l of listeners) l.drain();
}

async function runCheck(fn: ReadyCheck): Promise<string | null> {
  let timer: NodeJS.Timeout | undefined;
  try {
    const ok = await Promise.race([
      Promise.resolve().then(fn),
      new Promise<boolean>((_, reject) => {
        timer = setTimeout(() => reject(new Error('timed out')), CHECK_TIMEOUT_MS);
      }),
    ]);
    return ok ? null : 'not ready';
  } catch (e) {
    return (e as Error).message || 'failed';
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The ops listener of a service: `GET /metrics` (Prometheus text), `/livez` (the event loop turns),
 * `/readyz` (every check passes and the service is not draining; 503 with the failing checks
 * otherwise). Off when `port` is undefined; port 0 = ephemeral (tests).
 */
export async function startOps(opts: {
  name: string;
  port?: number;
  host: string;
  log: Logger;
}): Promise<OpsListener> {
  startDefaultMetrics();
  const checks = new Map<string, ReadyCheck>();
  let draining = false;
  let server: http.Server | undefined;
  const self: OpsListener = {
    name: opts.name,
    url: undefined,
    check: (name, fn) => void checks.set(name, fn),
    drain: () => {
      draining = true;
    },
    async close() {
      listeners.delete(self);
      draining = true;
      if (server) {
        server.closeAllConnections();
        await new Promise<void>((r) => server?.close(() => r()));
      }
    },
  };
  listeners.add(self);
  if (opts.port === undefined) return self;
  server = http.createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    const send = (status: number, type: string, body: string) => {
      res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store' });
      res.end(req.method === 'HEAD' ? undefined : body);
    };
    if (req.method !== 'GET' && req.method !== 'HEAD') return send(405, 'text/plain', 'method not allowed\n');
    if (path === '/livez') return send(200, 'text/plain', 'ok\n');
    if (path === '/readyz') {
      void (async () => {
        const failed: Record<string, string> = {};
        if (draining) failed.draining = 'shutting down';
        await Promise.all(
          [...checks].map(async ([name, fn]) => {
            const err = await runCheck(fn);
            if (err) failed[name] = err;
          }),
        );
        const ok = Object.keys(failed).length === 0;
        send(
          ok ? 200 : 503,
          'application/json',
          `${JSON.stringify(ok ? { status: 'ready' } : { status: 'not_ready', failed })}\n`,
        );
      })();
      return;
    }
    if (path === '/metrics') {
      metricsText().then(
        (m) => send(200, m.contentType, m.body),
        (err) => {
          opts.log.error({ err }, 'metrics collection failed');
          send(500, 'text/plain', 'metrics collection failed\n');
        },
      );
      return;
    }
    send(404, 'text/plain', 'not found\n');
  });
  await new Promise<void>((resolve, reject) => {
    server?.once('error', reject);
    server?.listen(opts.port, opts.host, () => resolve());
  });
  const a = server.address() as AddressInfo;
  self.url = `http://${a.family === 'IPv6' ? `[${a.address}]` : a.address}:${a.port}`;
  opts.log.info({ ops: self.url }, 'ops listener');
  return self;
}

/** Ready while the NATS connection is open and answers a ping. */
export function busCheck(nc: NatsConnection): ReadyCheck {
  return async () => {
    if (nc.isClosed() || nc.isDraining()) return false;
    await nc.rtt();
    return true;
  };
}
