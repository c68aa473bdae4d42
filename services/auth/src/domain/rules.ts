import type { CredentialStatus, DeliveryMode, UpdateCredentialBody } from '@od/contracts';

/** Pure rules of the credential lifecycle and edits. */

export interface EditableState {
  name: string;
  deliveryMode: DeliveryMode;
  webhookUrl: string | null;
  includeMarketplaceOrders: boolean;
}

export type RuleError =
  | { kind: 'revoked' }
  | { kind: 'invalid'; field: string; message: string }
  | { kind: 'no_webhook_url' };

export type Lifecycle = 'pause' | 'resume' | 'revoke';

/** Next status for a lifecycle action; revocation is permanent, repeating an action is a no-op. */
export function nextStatus(current: CredentialStatus, action: Lifecycle): CredentialStatus | RuleError {
  if (current === 'REVOKED') return action === 'revoke' ? 'REVOKED' : { kind: 'revoked' };
  if (action === 'pause') return 'PAUSED';
  if (action === 'resume') return 'ACTIVE';
  return 'REVOKED';
}

/**
 * Applies a PATCH. Saving `webhookUrl` (any string, even the same one) makes a new webhook secret;
 * `webhookUrl: null` removes the URL (and its secrets), allowed only when the result is POLLING.
 */
export function applyUpdate(
  status: CredentialStatus,
  current: EditableState,
  patch: UpdateCredentialBody,
): { next: EditableState; urlSaved: boolean; urlRemoved: boolean } | RuleError {
  if (status === 'REVOKED') return { kind: 'revoked' };
  const next: EditableState = {
    name: patch.name ?? current.name,
    deliveryMode: patch.deliveryMode ?? current.deliveryMode,
    webhookUrl: patch.webhookUrl === undefined ? current.webhookUrl : patch.webhookUrl,
    includeMarketplaceOrders: patch.includeMarketplaceOrders ?? current.includeMarketplaceOrders,
  };
  if (next.deliveryMode !== 'POLLING' && !next.webhookUrl) {
    return {
      kind: 'invalid',
      field: 'webhookUrl',
      message: 'webhookUrl é obrigatório para deliveryMode WEBHOOK ou BOTH.',
    };
  }
  const urlSaved = typeof patch.webhookUrl === 'string';
  const urlRemoved = patch.webhookUrl === null && current.webhookUrl !== null;
  return { next, urlSaved, urlRemoved };
}

export const isRuleError = (x: unknown): x is RuleError => typeof x === 'object' && x !== null && 'kind' in x;
