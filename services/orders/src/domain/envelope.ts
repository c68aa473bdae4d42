import type { Actor, EventEnvelope, EventType, OrderChannel, OrderEventMessage } from '@od/contracts';

/**
 * The event envelope exactly as SPEC describes it: optional fields omitted (never null);
 * `sourceAppId` = client_id of the credential whose action caused the event; `metadata` `{}` for
 * CONFIRMED, `{ reason, code }` for CANCELLED, `{ delivery }` for courier events, omitted otherwise.
 */
export function buildEventMessage(e: {
  eventId: string;
  eventType: EventType;
  orderId: string;
  merchantId: string;
  channel: OrderChannel;
  orderSeq: number;
  baseUrl: string;
  createdAt: string;
  actor: Actor;
  metadata?: Record<string, unknown>;
}): OrderEventMessage {
  const envelope: EventEnvelope = {
    eventId: e.eventId,
    eventType: e.eventType,
    orderId: e.orderId,
    orderURL: `${e.baseUrl.replace(/\/+$/, '')}/v1/orders/${e.orderId}`,
    createdAt: e.createdAt,
  };
  if (e.actor.kind === 'CREDENTIAL') envelope.sourceAppId = e.actor.clientId;
  const metadata = e.eventType === 'CONFIRMED' ? (e.metadata ?? {}) : e.metadata;
  if (metadata !== undefined) envelope.metadata = metadata;
  return { merchantId: e.merchantId, channel: e.channel, orderSeq: e.orderSeq, envelope };
}
