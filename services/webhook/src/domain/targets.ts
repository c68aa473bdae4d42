import type { CredentialRecord, OrderEventMessage } from '@od/contracts';
import { WEBHOOK_MAX_ATTEMPTS, WEBHOOK_RETRY_DELAYS_MS } from '@od/contracts';

export type SkipReason =
  | 'credential_paused'
  | 'credential_revoked'
  | 'webhook_disabled'
  | 'webhook_deactivated'
  | 'no_signing_secret';

export interface Target {
  clientId: string;
  /** PENDING = to be sent; SKIPPED = recorded, not sent */
  status: 'PENDING' | 'SKIPPED';
  skipReason: SkipReason | null;
}

export const wantsWebhooks = (c: CredentialRecord): boolean =>
  c.deliveryMode === 'WEBHOOK' || c.deliveryMode === 'BOTH';

/**
 * Whether an event concerns a credential at all, by the feed's rules: same store, event created at
 * or after the credential, marketplace orders only when the credential includes them.
 */
export function eventVisibleTo(
  c: CredentialRecord,
  ev: { merchantId: string; channel: string; createdAt: string },
): boolean {
  if (c.merchantId !== ev.merchantId) return false;
  if (Date.parse(ev.createdAt) < Date.parse(c.createdAt)) return false;
  if (ev.channel === 'MARKETPLACE' && !c.includeMarketplaceOrders) return false;
  return true;
}

/** Why a credential cannot receive a webhook right now (null = it can). */
export function notDeliverable(c: CredentialRecord | undefined): SkipReason | null {
  if (!c || c.status === 'REVOKED') return 'credential_revoked';
  if (!wantsWebhooks(c) || !c.webhookUrl) return 'webhook_disabled';
  if (c.status === 'PAUSED') return 'credential_paused';
  return null;
}

/**
 * The deliveries one event creates: one per credential of the store in WEBHOOK or BOTH mode that the
 * event is visible to and that is not revoked. A PAUSED credential gets a SKIPPED delivery (recorded,
 * never sent; the event stays pollable and can be resent after resume).
 */
export function targetsFor(msg: OrderEventMessage, credentials: CredentialRecord[]): Target[] {
  const ev = { merchantId: msg.merchantId, channel: msg.channel, createdAt: msg.envelope.createdAt };
  const out: Target[] = [];
  for (const c of credentials) {
    if (c.status === 'REVOKED' || !wantsWebhooks(c) || !eventVisibleTo(c, ev)) continue;
    const reason = notDeliverable(c);
    out.push({ clientId: c.clientId, status: reason ? 'SKIPPED' : 'PENDING', skipReason: reason });
  }
  return out;
}

/** Delay before the next attempt after `attemptsDone` failed attempts; null = no attempt left. */
export function retryDelayMs(attemptsDone: number, scale: number): number | null {
  if (attemptsDone >= WEBHOOK_MAX_ATTEMPTS) return null;
  const base = WEBHOOK_RETRY_DELAYS_MS[attemptsDone - 1];
  return base === undefined ? null : Math.max(1, Math.round(base * scale));
}
