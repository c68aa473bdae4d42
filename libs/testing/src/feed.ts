// Test helpers for the feed (publish as the orders relay would, poll, acknowledge).
import { randomUUID } from 'node:crypto';
import { jetstream } from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { ensureOrderEventStream, streamSettings } from '@od/bus';
import { type EventEnvelope, names, type OrderChannel, type OrderEventMessage } from '@od/contracts';
import type { TestStack } from './stack.ts';

export interface Publisher {
  nc: NatsConnection;
  /** publishes an order event as the orders relay would (msgID = eventId) and returns its envelope */
  publish(
    merchantId: string,
    opts?: {
      channel?: OrderChannel;
      eventType?: string;
      createdAt?: string;
      orderId?: string;
      orderSeq?: number;
    },
  ): Promise<EventEnvelope>;
  close(): Promise<void>;
}

export async function publisher(stack: TestStack): Promise<Publisher> {
  const nc = await connect({ servers: stack.config.NATS_URL });
  const n = names(stack.config.NATS_PREFIX);
  await ensureOrderEventStream(nc, n, streamSettings(stack.config));
  const js = jetstream(nc);
  return {
    nc,
    async publish(merchantId, opts = {}) {
      const orderId = opts.orderId ?? randomUUID();
      const envelope: EventEnvelope = {
        eventId: randomUUID(),
        eventType: opts.eventType ?? 'CREATED',
        orderId,
        orderURL: `${stack.config.PUBLIC_BASE_URL}/v1/orders/${orderId}`,
        createdAt: opts.createdAt ?? new Date().toISOString(),
        metadata: {},
      };
      const msg: OrderEventMessage = {
        merchantId,
        channel: opts.channel ?? 'DIGITAL_MENU',
        orderSeq: opts.orderSeq ?? 1,
        envelope,
      };
      await js.publish(n.orderEventSubject(merchantId), JSON.stringify(msg), { msgID: envelope.eventId });
      return envelope;
    },
    close: () => nc.close(),
  };
}

export const bearerOf = (token: string) => ({ headers: { authorization: `Bearer ${token}` } });

export async function poll(stack: TestStack, token: string, query = ''): Promise<EventEnvelope[]> {
  const res = await stack.api(`/v1/events:polling${query}`, bearerOf(token));
  if (res.status !== 200) throw new Error(`polling answered ${res.status}: ${await res.text()}`);
  return (await res.json()) as EventEnvelope[];
}

export async function ack(stack: TestStack, token: string, ids: string[]): Promise<Response> {
  return stack.api('/v1/events/acknowledgment', {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(ids.map((id) => ({ id }))),
  });
}

/** Polls until `check` holds (eventual consistency of the stream -> feed path), generous timeout. */
export async function eventually<T>(
  fn: () => Promise<T>,
  check: (v: T) => boolean,
  timeoutMs = 15_000,
): Promise<T> {
  const end = Date.now() + timeoutMs;
  let last: T = await fn();
  while (!check(last)) {
    if (Date.now() > end) return last;
    await new Promise((r) => setTimeout(r, 50));
    last = await fn();
  }
  return last;
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
