import { type RecipientEvent, receives } from '@od/bus';
import type { CredentialRecord } from '@od/contracts';
import { odEventType } from '@od/opendelivery';

export type SkipReason =
  | 'credential_paused'
  | 'credential_revoked'
  | 'webhook_disabled'
  | 'webhook_deactivated'
  | 'no_signing_secret'
  | 'not_in_standard';

export interface Target {
  clientId: string;
  /** PENDING = to be sent; SKIPPED = recorded, not sent */
  status: 'PENDING' | 'SKIPPED';
  skipReason: SkipReason | null;
}

const wantsWebhooks = (c: CredentialRecord): boolean =>
  c.deliveryMode === 'WEBHOOK' || c.deliveryMode === 'BOTH';

/** Why a credential cannot receive a webhook right now (null = it can). */
export function notDeliverable(c: CredentialRecord | undefined): SkipReason | null {
  if (!c || c.status === 'REVOKED') return 'credential_revoked';
  if (!wantsWebhooks(c) || !c.webhookUrl) return 'webhook_disabled';
  if (c.status === 'PAUSED') return 'credential_paused';
  return null;
}

/** An OPEN_DELIVERY credential is sent only the event types of the standard (extensions mapped or left out). */
export const outsideProfile = (c: CredentialRecord, eventType: string): boolean =>
  c.apiProfile === 'OPEN_DELIVERY' && odEventType(eventType) === null;

/**
 * The deliveries one event creates: one per recipient of the event (the recipient rule of @od/bus)
 * in WEBHOOK or BOTH mode. A PAUSED credential gets a SKIPPED delivery (recorded, never sent; the
 * event stays pollable and can be resent after resume); so does an OPEN_DELIVERY credential for an
 * event the standard has no type for (`not_in_standard`).
 */
export function targetsFor(
  ev: RecipientEvent & { eventType: string },
  credentials: CredentialRecord[],
): Target[] {
  const out: Target[] = [];
  for (const c of credentials) {
    if (!wantsWebhooks(c) || !receives(c, ev)) continue;
    const reason = notDeliverable(c) ?? (outsideProfile(c, ev.eventType) ? 'not_in_standard' : null);
    out.push({ clientId: c.clientId, status: reason ? 'SKIPPED' : 'PENDING', skipReason: reason });
  }
  return out;
}
