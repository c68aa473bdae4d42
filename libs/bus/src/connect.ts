import { connect, type NatsConnection, errors as natsErrors } from '@nats-io/transport-node';
import type { Logger } from '@od/logger';

/**
 * Connects to NATS for a whole process lifetime: reconnects forever (also when the server is down at
 * start: `waitOnFirstConnect`), notices a silent server within about PING_INTERVAL_MS * 2.
 *
 * Fail fast while disconnected: nats.js would hold a request in its buffer until its timeout. Here a
 * request made while the connection is down fails at once, and requests in flight when it drops
 * fail at that moment, with a no-responders error (callRpc maps it to "service unavailable", the
 * gateway answers 503 + Retry-After). A reply published while we are disconnected is lost anyway.
 */
export const PING_INTERVAL_MS = 5_000;

export async function connectBus(url: string, name: string, log?: Logger): Promise<NatsConnection> {
  const nc = await connect({
    servers: url.split(','),
    name,
    noAsyncTraces: true,
    maxReconnectAttempts: -1,
    reconnectTimeWait: 250,
    waitOnFirstConnect: true,
    pingInterval: PING_INTERVAL_MS,
    maxPingOut: 2,
  });
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
        log?.warn({ nats: s.type }, 'nats status');
    }
  })();
}
