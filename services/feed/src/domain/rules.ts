import {
  type CredentialRecord,
  GUID_PATTERN,
  type OrderEventMessage,
  POLL_LIMIT_DEFAULT,
  POLL_LIMIT_MAX,
} from '@od/contracts';
import { z } from 'zod';

/**
 * Who receives an event (mirrored by the fan-out SQL in db/queries.ts):
 * - a credential of the same store,
 * - created no later than the event (a credential sees events created after it was created),
 * - not REVOKED (PAUSED keeps accumulating),
 * - MARKETPLACE-channel events only when the credential includes marketplace orders.
 */
export function receives(
  cred: Pick<CredentialRecord, 'merchantId' | 'status' | 'createdAt' | 'includeMarketplaceOrders'>,
  event: { merchantId: string; channel: string; createdAt: string },
): boolean {
  if (cred.merchantId.toLowerCase() !== event.merchantId.toLowerCase()) return false;
  if (cred.status === 'REVOKED') return false;
  if (Date.parse(cred.createdAt) > Date.parse(event.createdAt)) return false;
  if (event.channel === 'MARKETPLACE' && !cred.includeMarketplaceOrders) return false;
  return true;
}

const guid = z.string().regex(GUID_PATTERN);
/** Lenient on purpose: only what storing and routing need is checked (a dropped event is lost). */
const messageSchema = z.object({
  merchantId: guid,
  channel: z.string().min(1),
  envelope: z.object({
    eventId: guid,
    eventType: z.string().min(1),
    orderId: guid,
    createdAt: z.string().refine((s) => !Number.isNaN(Date.parse(s)), 'not a date'),
  }),
});

/** A stream message, checked; `envelopeText` is the exact JSON served to integrators. */
export interface StoredEvent {
  eventId: string;
  merchantId: string;
  channel: string;
  eventType: string;
  orderId: string;
  createdAt: string;
  envelopeText: string;
}

export function parseEventMessage(raw: unknown): StoredEvent | { error: string } {
  const r = messageSchema.safeParse(raw);
  if (!r.success) return { error: r.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ') };
  const m = raw as OrderEventMessage;
  return {
    eventId: r.data.envelope.eventId.toLowerCase(),
    merchantId: r.data.merchantId,
    channel: r.data.channel,
    eventType: r.data.envelope.eventType,
    orderId: r.data.envelope.orderId,
    createdAt: r.data.envelope.createdAt,
    // the publisher's envelope as it came (field order, omitted optionals), never re-shaped
    envelopeText: JSON.stringify(m.envelope),
  };
}

/** Polling `limit` as the service sees it (the gateway validated it already); undefined = default. */
export function pollLimit(raw: unknown): number | undefined {
  if (raw === undefined || raw === null || raw === '') return POLL_LIMIT_DEFAULT;
  const n =
    typeof raw === 'number' ? raw : typeof raw === 'string' && /^\d+$/.test(raw) ? Number(raw) : Number.NaN;
  if (!Number.isInteger(n) || n < 1 || n > POLL_LIMIT_MAX) return undefined;
  return n;
}

/** Distinct lower-case event ids of an acknowledgment body; null when the body is not valid. */
export function ackIds(body: unknown): string[] | null {
  if (!Array.isArray(body)) return null;
  const out = new Set<string>();
  for (const e of body) {
    const id = (e as { id?: unknown } | null)?.id;
    if (typeof id !== 'string' || !GUID_PATTERN.test(id)) return null;
    out.add(id.toLowerCase());
  }
  return [...out];
}
