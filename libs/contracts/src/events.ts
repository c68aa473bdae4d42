import { z } from 'zod';
import { type EventType, HANDSHAKE_EVENT_TYPES } from './codes.ts';

export {
  COURIER_EVENT_TYPES,
  EVENT_TYPES,
  type EventType,
  STANDARD_EVENT_TYPES,
} from './codes.ts';

/**
 * Event types only OPEN_DELIVERY credentials receive (the Open Delivery cancellation handshake):
 * the recipient rule (@od/bus recipients.ts) keeps them out of every SPEC credential's feed and
 * webhook deliveries.
 */
export const OPEN_DELIVERY_ONLY_EVENT_TYPES: readonly EventType[] = HANDSHAKE_EVENT_TYPES;

/** SPEC "Event envelope": optional fields are omitted, never null. The envelope never carries the order. */
export const eventEnvelopeSchema = z
  .object({
    eventId: z.string().uuid(),
    eventType: z
      .string()
      .describe(
        'CREATED, CONFIRMED, READY_FOR_PICKUP, DISPATCHED, CONCLUDED, CANCELLED; extensions: PREPARING, MODIFIED, COURIER_*. Ignore (and acknowledge) unknown types.',
      ),
    orderId: z.string().uuid(),
    orderURL: z.string().url().describe('full URL of the order, fetched with the same token'),
    createdAt: z.string(),
    sourceAppId: z.string().optional().describe('client id of the credential whose action caused the event'),
    metadata: z
      .record(z.string(), z.unknown())
      .optional()
      .describe('{} for CONFIRMED; reason and code for CANCELLED'),
  })
  .meta({
    id: 'EventEnvelope',
    description: 'SPEC "Event envelope": optional fields are omitted; it never carries the order.',
    example: {
      eventId: '0b7f1c5e-9d0c-4e8a-8f55-1f0c2b3a4d5e',
      eventType: 'CONFIRMED',
      orderId: '6f1d2c3b-4a5e-4f60-8a7b-9c0d1e2f3a4b',
      orderURL: 'https://api.example.com/v1/orders/6f1d2c3b-4a5e-4f60-8a7b-9c0d1e2f3a4b',
      createdAt: '2026-09-19T12:00:00.000Z',
      metadata: {},
    },
  });
export type EventEnvelope = z.infer<typeof eventEnvelopeSchema>;

export const ORDER_CHANNELS = ['DIGITAL_MENU', 'APP', 'TABLE', 'MARKETPLACE'] as const;
export type OrderChannel = (typeof ORDER_CHANNELS)[number];

/**
 * What travels on the order-event stream: the public envelope plus the routing facts consumers need.
 * Published with JetStream message id = envelope.eventId (dedup). Consumers deliver `envelope` only.
 */
export interface OrderEventMessage {
  merchantId: string;
  channel: OrderChannel;
  /** per-order sequence, strictly increasing: lets consumers check ordering */
  orderSeq: number;
  envelope: EventEnvelope;
}
