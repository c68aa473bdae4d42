import {
  EVENT_TYPES,
  type EventEnvelope,
  type EventType,
  OD_EVENT_TYPE_VALUES,
  type OdEvent,
} from '@od/contracts';

/** The event types of Open Delivery 1.4.0 (components/schemas/Event.eventType). */
export const OD_EVENT_TYPES = OD_EVENT_TYPE_VALUES;
export type OdEventType = (typeof OD_EVENT_TYPES)[number];
const OD_TYPES = new Set<string>(OD_EVENT_TYPES);

/**
 * Platform event type -> standard event type. The standard types (the six shared with SPEC and the
 * four of the cancellation handshake) pass unchanged; an extension
 * with a standard equivalent is renamed (the courier's delivery is the standard's `DELIVERED`);
 * every other extension (`PREPARING`, `MODIFIED`, the other courier events) has no equivalent in
 * 1.4.0 and is left out of an OPEN_DELIVERY credential's feed.
 */
const RENAMED: Record<string, OdEventType> = { COURIER_DELIVERED: 'DELIVERED' };

export function odEventType(platformType: string): OdEventType | null {
  if (OD_TYPES.has(platformType)) return platformType as OdEventType;
  return RENAMED[platformType] ?? null;
}

/** The platform event types an Open Delivery caller receives: those with a standard type in `selected` (all when omitted). */
export function platformTypesFor(selected?: ReadonlySet<OdEventType>): EventType[] {
  return EVENT_TYPES.filter((t) => {
    const od = odEventType(t);
    return od !== null && (!selected || selected.has(od));
  });
}

/** Types whose standard schema requires `metadata` (EventMetadataConfirm, EventMetadataCancel). */
const METADATA_REQUIRED = new Set<string>([
  'CONFIRMED',
  'CANCELLED',
  'CANCELLATION_REQUESTED',
  'CANCELLATION_REQUEST_DENIED',
  'ORDER_CANCELLATION_REQUEST',
  'CANCELLED_DENIED',
]);

/**
 * The standard envelope of a platform event, or null when the standard has no such event.
 * `sourceAppId` is the ordering application's AppId (`appId`, OD_APP_ID: the standard's meaning);
 * the platform's own `sourceAppId` (the acting credential's client id) travels as
 * `metadata.clientId`, the standard's field for "the client system that generated the action".
 */
export function toOdEvent(e: EventEnvelope, appId: string): OdEvent | null {
  const eventType = odEventType(e.eventType);
  if (!eventType) return null;
  const out: OdEvent = {
    eventId: e.eventId,
    eventType,
    orderId: e.orderId,
    orderURL: e.orderURL,
    createdAt: e.createdAt,
    sourceAppId: appId,
  };
  const metadata: Record<string, unknown> = {};
  if (METADATA_REQUIRED.has(eventType) && e.metadata) {
    for (const k of ['reason', 'code'] as const) if (e.metadata[k] !== undefined) metadata[k] = e.metadata[k];
  }
  if (e.sourceAppId) metadata.clientId = e.sourceAppId;
  if (METADATA_REQUIRED.has(eventType) || Object.keys(metadata).length) out.metadata = metadata;
  return out;
}
