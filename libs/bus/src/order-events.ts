import { isGuid, ORDER_CHANNELS, type OrderChannel, type OrderEventMessage } from '@od/contracts';

/** A stream message as every consumer needs it: checked, ids lowercased, the envelope kept verbatim. */
export interface ParsedOrderEvent {
  eventId: string;
  merchantId: string;
  orderId: string;
  channel: OrderChannel;
  eventType: string;
  createdAt: string;
  /** per-order sequence (1, 2, 3 ...) when the publisher sent one: consumers keep an order's events in order */
  orderSeq: number | null;
  /** the publisher's envelope JSON (field order, omitted optionals): what integrators receive */
  envelopeText: string;
}

/**
 * Lenient on purpose: only what storing and routing need is checked (an event refused here is set
 * aside, not delivered). Never throws.
 */
export function parseOrderEvent(data: Uint8Array): ParsedOrderEvent | { error: string } {
  let m: OrderEventMessage;
  try {
    m = JSON.parse(new TextDecoder().decode(data));
  } catch {
    return { error: 'not JSON' };
  }
  const env = m?.envelope;
  if (!isGuid(m?.merchantId)) return { error: 'merchantId: not a GUID' };
  if (!ORDER_CHANNELS.includes(m.channel)) return { error: 'channel: unknown' };
  if (!env || typeof env !== 'object') return { error: 'envelope: missing' };
  if (!isGuid(env.eventId)) return { error: 'envelope.eventId: not a GUID' };
  if (!isGuid(env.orderId)) return { error: 'envelope.orderId: not a GUID' };
  if (typeof env.eventType !== 'string' || !env.eventType) return { error: 'envelope.eventType: missing' };
  if (typeof env.createdAt !== 'string' || Number.isNaN(Date.parse(env.createdAt)))
    return { error: 'envelope.createdAt: not a date' };
  return {
    eventId: env.eventId.toLowerCase(),
    merchantId: m.merchantId.toLowerCase(),
    orderId: env.orderId.toLowerCase(),
    channel: m.channel,
    eventType: env.eventType,
    createdAt: env.createdAt,
    orderSeq: Number.isInteger(m.orderSeq) && m.orderSeq > 0 ? m.orderSeq : null,
    envelopeText: JSON.stringify(env),
  };
}
