/**
 * Size limits of what the orders service stores and publishes (README "Limits"). The bus carries at
 * most 1 MiB per message (NATS max_payload, checked at start): an order's document travels whole in
 * the GET and intake replies, an outbox message whole to JetStream.
 */

/** Largest public Order document (JSON bytes); a larger intake or edit answers 413. */
export const MAX_ORDER_DOCUMENT_BYTES = 900 * 1024;

/** Largest outbox message (OrderEventMessage JSON bytes); a larger event cannot be created (413). */
export const MAX_EVENT_BYTES = 64 * 1024;

/** Room the RPC reply needs around a document (situation, channel, headers). */
export const REPLY_OVERHEAD_BYTES = 16 * 1024;

export const byteLength = (s: string): number => Buffer.byteLength(s, 'utf8');
