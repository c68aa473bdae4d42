import { z } from 'zod';
import { API_PROFILES, CREDENTIAL_STATUSES, DELIVERY_MODES } from './codes.ts';

export {
  API_PROFILES,
  type ApiProfile,
  CREDENTIAL_STATUSES,
  type CredentialStatus,
  DELIVERY_MODES,
  type DeliveryMode,
} from './codes.ts';

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

/** Reply of auth to every credential change: the KV revision lets the gateway wait for its own write. */
export interface CredentialChange {
  credential: CredentialRecord;
  revision: number;
  /** only on create */
  clientSecret?: string;
  /** on create (null without URL), on URL save and on rotation */
  webhookSecret?: string | null;
}
