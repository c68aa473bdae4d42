import { z } from 'zod';
import { CREDENTIAL_OPS } from './catalogue/auth.ts';
import { API_PROFILES, type CredentialChange } from './credentials.ts';

export const WEBHOOK_SECRET_PREFIX = 'whsec_';
/** After a rotation the previous webhook secret stays valid this long. */
export const WEBHOOK_SECRET_OVERLAP_MS = 24 * 60 * 60 * 1000;

export type { CredentialChange } from './credentials.ts';

/** Admin HTTP shapes (documentation). */
export const credentialViewSchema = z.object({
  clientId: z.string(),
  merchantId: z.string(),
  name: z.string(),
  scopes: z.array(z.string()),
  status: z.string(),
  deliveryMode: z.string(),
  webhookUrl: z.string().nullable(),
  includeMarketplaceOrders: z.boolean(),
  apiProfile: z.enum(API_PROFILES),
  createdAt: z.string(),
  updatedAt: z.string(),
});

/** The create answer of the Admin API and the panel: the record with both secrets, shown this once. */
export function createdCredentialView(c: CredentialChange) {
  const { clientId, ...rest } = c.credential;
  return { clientId, clientSecret: c.clientSecret, webhookSecret: c.webhookSecret ?? null, ...rest };
}

export type CreatedCredential = ReturnType<typeof createdCredentialView>;

/** The update answer of the Admin API and the panel: the record, with the webhook secret when the update made one. */
export function updatedCredentialView(c: CredentialChange) {
  return { ...c.credential, ...(c.webhookSecret ? { webhookSecret: c.webhookSecret } : {}) };
}

const recordView = (c: CredentialChange) => c.credential;
const secretView = (c: CredentialChange) => ({ webhookSecret: c.webhookSecret });

/**
 * The credential changes of the Admin API and the panel (the same auth ops, the same answers): per
 * change, its op, the answer built from auth's CredentialChange, and whether that answer holds a
 * secret (sent with `Cache-Control: no-store`). The keys after `update` are also the last path
 * segment of their routes: `POST .../credentials/{clientId}/<key>`.
 */
export const CREDENTIAL_CHANGES = {
  create: { op: CREDENTIAL_OPS.create, view: createdCredentialView, secret: true },
  update: { op: CREDENTIAL_OPS.update, view: updatedCredentialView, secret: true },
  pause: { op: CREDENTIAL_OPS.pause, view: recordView, secret: false },
  resume: { op: CREDENTIAL_OPS.resume, view: recordView, secret: false },
  revoke: { op: CREDENTIAL_OPS.revoke, view: recordView, secret: false },
  'webhook-secret': { op: CREDENTIAL_OPS.rotateWebhookSecret, view: secretView, secret: true },
} as const;
export type CredentialChangeKind = keyof typeof CREDENTIAL_CHANGES;
export const CREDENTIAL_ACTIONS = ['pause', 'resume', 'revoke', 'webhook-secret'] as const;
