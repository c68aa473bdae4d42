import { z } from 'zod';

export const DELIVERY_MODES = ['POLLING', 'WEBHOOK', 'BOTH'] as const;
export type DeliveryMode = (typeof DELIVERY_MODES)[number];
/**
 * A credential's API profile: `SPEC` (default) serves the platform's documented shapes;
 * `OPEN_DELIVERY` serves the official Open Delivery 1.4.0 contract for that credential's calls,
 * events and pushes. Set at creation; it cannot be edited (a new credential is required).
 */
export const API_PROFILES = ['SPEC', 'OPEN_DELIVERY'] as const;
export type ApiProfile = (typeof API_PROFILES)[number];
export const CREDENTIAL_STATUSES = ['ACTIVE', 'PAUSED', 'REVOKED'] as const;
export type CredentialStatus = (typeof CREDENTIAL_STATUSES)[number];

/** client_id: fixed prefix ending in underscore + 24 hex characters */
export const CLIENT_ID_PREFIX = 'odc_';
export const CLIENT_ID_PATTERN = /^odc_[0-9a-f]{24}$/;

/**
 * The non-secret view of a credential, published by auth in the credentials KV bucket
 * (key = clientId) on every change. Gateways, feed and webhook watch it.
 */
export const credentialRecordSchema = z.object({
  clientId: z.string(),
  merchantId: z.string().uuid(),
  name: z.string(),
  /** strings, not the enum: a replica older than a new scope keeps the record (and ignores the scope) */
  scopes: z.array(z.string()),
  status: z.enum(CREDENTIAL_STATUSES),
  deliveryMode: z.enum(DELIVERY_MODES),
  webhookUrl: z.string().nullable(),
  includeMarketplaceOrders: z.boolean(),
  /** records written before the profile existed are SPEC */
  apiProfile: z.enum(API_PROFILES).default('SPEC'),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type CredentialRecord = z.infer<typeof credentialRecordSchema>;
