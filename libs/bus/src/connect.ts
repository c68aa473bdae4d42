import { connect, type NatsConnection } from '@nats-io/transport-node';
import type { Logger } from '@od/logger';

export async function connectBus(url: string, name: string, log?: Logger): Promise<NatsConnection> {
  const nc = await connect({
    servers: url.split(','),
    name,
    noAsyncTraces: true,
    maxReconnectAttempts: -1,
    reconnectTimeWait: 250,
  });
  if (log) {
    void (async () => {
      for await (const s of nc.status()) {
        if (s.type === 'disconnect' || s.type === 'reconnect' || s.type === 'error')
          log.warn({ nats: s.type }, 'nats status');
      }
    })();
  }
  return nc;
}
