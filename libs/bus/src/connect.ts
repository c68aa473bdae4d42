import { readFileSync } from 'node:fs';
import {
  type ConnectionOptions,
  connect,
  credsAuthenticator,
  type NatsConnection,
  errors as natsErrors,
} from '@nats-io/transport-node';
import type { Logger } from '@od/logger';
import { inboxPrefix } from './permissions.ts';

/** How a process reaches the bus (libs/config names; see deploy/nats/README.md). */
export interface BusConfig {
  NATS_URL: string;
  /** this process's own identity: user + password ... */
  NATS_USER?: string;
  NATS_PASSWORD?: string;
  /** ... or a creds file (operator-mode servers) */
  NATS_CREDS?: string;
  /** TLS: CA bundle, client certificate and key (file paths); any of them turns TLS on */
  NATS_TLS_CA?: string;
  NATS_TLS_CERT?: string;
  NATS_TLS_KEY?: string;
}

/** Connection options of `bus` for the identity `name` (exported for tests). */
export function busConnectionOptions(bus: BusConfig, name: string): ConnectionOptions {
  const tls =
    bus.NATS_TLS_CA || bus.NATS_TLS_CERT || bus.NATS_TLS_KEY
      ? {
          ...(bus.NATS_TLS_CA ? { caFile: bus.NATS_TLS_CA } : {}),
          ...(bus.NATS_TLS_CERT ? { certFile: bus.NATS_TLS_CERT } : {}),
          ...(bus.NATS_TLS_KEY ? { keyFile: bus.NATS_TLS_KEY } : {}),
        }
      : undefined;
  return {
    servers: bus.NATS_URL.split(','),
    name,
    // replies come to this identity's own inbox subjects: permissions let nobody else read them
    inboxPrefix: inboxPrefix(name.replace(/[^A-Za-z0-9_-]/g, '_')),
    ...(bus.NATS_USER ? { user: bus.NATS_USER, pass: bus.NATS_PASSWORD } : {}),
    ...(bus.NATS_CREDS ? { authenticator: credsAuthenticator(readFileSync(bus.NATS_CREDS)) } : {}),
    ...(tls ? { tls } : {}),
    noAsyncTraces: true,
    maxReconnectAttempts: -1,
    reconnectTimeWait: 250,
    waitOnFirstConnect: true,
    pingInterval: PING_INTERVAL_MS,
    maxPingOut: 2,
  };
}

/**
 * Connects to NATS with the process's identity (`bus` as a bare URL: anonymously, dev servers) for
 * a whole process lifetime: reconnects forever (also when the server is down at
 * start: `waitOnFirstConnect`), notices a silent server within about PING_INTERVAL_MS * 2.
 *
 * Fail fast while disconnected: nats.js would hold a request in its buffer until its timeout. Here a
 * request made while the connection is down fails at once, and requests in flight when it drops
 * fail at that moment, with a no-responders error (callRpc maps it to "service unavailable", the
 * gateway answers 503 + Retry-After). A reply published while we are disconnected is lost anyway.
 * RPCs (`callRpc`) go through the reply mux (reply-mux.ts), which applies the same rule itself; this
 * wrapper covers the other `nc.request` callers (the gateway barrier).
 */
export const PING_INTERVAL_MS = 5_000;

export async function connectBus(
  bus: BusConfig | string,
  name: string,
  log?: Logger,
): Promise<NatsConnection> {
  const nc = await connect(busConnectionOptions(typeof bus === 'string' ? { NATS_URL: bus } : bus, name));
  failFastWhileDisconnected(nc, log);
  return nc;
}
const unreachable = (subject: string) =>
  new natsErrors.RequestError('nats disconnected', { cause: new natsErrors.NoRespondersError(subject) });

function failFastWhileDisconnected(nc: NatsConnection, log?: Logger): void {
  let connected = true;
  const inFlight = new Set<(e: Error) => void>();
  const request = nc.request.bind(nc);
  nc.request = (subject, payload, opts) => {
    if (!connected) return Promise.reject(unreachable(subject));
    return new Promise((resolve, reject) => {
      inFlight.add(reject);
      request(subject, payload, opts)
        .then(resolve, reject)
        .finally(() => inFlight.delete(reject));
    });
  };
  void (async () => {
    for await (const s of nc.status()) {
      if (s.type === 'disconnect') {
        connected = false;
        for (const reject of inFlight) reject(unreachable('(in flight)'));
        inFlight.clear();
      } else if (s.type === 'reconnect') connected = true;
      if (s.type === 'disconnect' || s.type === 'reconnect' || s.type === 'error')
        log?.warn({ nats: s.type, ...('error' in s ? { err: String(s.error) } : {}) }, 'nats status');
    }
  })();
}
