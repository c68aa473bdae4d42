import { type CredentialRecord, OPEN_DELIVERY_ONLY_EVENT_TYPES } from '@od/contracts';

/**
 * THE recipient rule: which credentials receive an order event (feed entries, webhook deliveries).
 * A credential receives an event when
 * - it belongs to the event's store (ids compared case-insensitively),
 * - it is not REVOKED (PAUSED keeps accumulating; the webhook records such a delivery as skipped),
 * - it was created no later than the event (a credential never sees events from before it existed),
 * - the event is not a MARKETPLACE-channel one, unless the credential includes marketplace orders,
 * - the event's type exists in the credential's profile: the Open Delivery handshake types
 *   (`OPEN_DELIVERY_ONLY_EVENT_TYPES`) go to OPEN_DELIVERY credentials only, so a SPEC credential
 *   never holds one (decided when the event is stored: the profile of a credential never changes).
 * `recipientSql` states the same rule for PostgreSQL; recipients.test.ts checks both on one table.
 */
export type RecipientCredential = Pick<
  CredentialRecord,
  'merchantId' | 'status' | 'createdAt' | 'includeMarketplaceOrders' | 'apiProfile'
>;
export interface RecipientEvent {
  merchantId: string;
  channel: string;
  createdAt: string;
  eventType: string;
}

const OPEN_DELIVERY_ONLY = new Set<string>(OPEN_DELIVERY_ONLY_EVENT_TYPES);

export function receives(c: RecipientCredential, e: RecipientEvent): boolean {
  return (
    c.merchantId.toLowerCase() === e.merchantId.toLowerCase() &&
    c.status !== 'REVOKED' &&
    Date.parse(c.createdAt) <= Date.parse(e.createdAt) &&
    (c.includeMarketplaceOrders || e.channel !== 'MARKETPLACE') &&
    (c.apiProfile === 'OPEN_DELIVERY' || !OPEN_DELIVERY_ONLY.has(e.eventType))
  );
}

/** SQL expressions (columns or typed parameters) naming each fact the rule reads. */
export interface RecipientSqlTerms {
  credential: {
    merchantId: string;
    status: string;
    createdAt: string;
    includeMarketplaceOrders: string;
    apiProfile: string;
  };
  event: { merchantId: string; channel: string; createdAt: string; eventType: string };
}

/**
 * The rule as a SQL condition. Ids are compared as uuid (case-insensitive); times as timestamptz.
 * E.g. the feed's fan-out: credential = columns of `credentials c`, event = the statement's parameters.
 */
export function recipientSql({ credential: c, event: e }: RecipientSqlTerms): string {
  return [
    `(${c.merchantId})::uuid = (${e.merchantId})::uuid`,
    `(${c.status})::text <> 'REVOKED'`,
    `(${c.createdAt})::timestamptz <= (${e.createdAt})::timestamptz`,
    `((${c.includeMarketplaceOrders})::boolean OR (${e.channel})::text <> 'MARKETPLACE')`,
    `((${c.apiProfile})::text = 'OPEN_DELIVERY' OR (${e.eventType})::text NOT IN (${[...OPEN_DELIVERY_ONLY]
      .map((t) => `'${t}'`)
      .join(', ')}))`,
  ].join(' AND ');
}
