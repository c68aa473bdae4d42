import { isGuid, type ServedRequest } from '@od/contracts';
import type { SecretBox } from '@od/crypto';
import type { EgressDns } from '@od/egress';
import { errors, HttpException } from '@od/errors';
import type { OdValidator } from '@od/opendelivery/validator';
import type { CatalogDb } from '../db/catalog-db.ts';
import type { StoreCache } from '../db/store-cache.ts';
import type { FetchSlots } from '../domain/fetch-slots.ts';

export interface HandlerDeps {
  db: CatalogDb;
  /** rendered stores of this replica */
  cache: StoreCache;
  /** after an edit commits: drop the store from every replica's cache */
  changed: (merchantId: string) => void;
  now: () => Date;
  od: OdDeps;
}

/** What the Open Delivery Merchant module needs (handlers/od-*.ts). */
export interface OdDeps {
  /** seals the point of sale's api key (SECRETS_KEYS) */
  box: SecretBox;
  /** WEBHOOK_ALLOW_PRIVATE_NETWORKS: the same SSRF rules as webhooks (@od/egress) */
  allowPrivateNetworks: boolean;
  /** the official Merchant schema (loaded on first use) */
  validator: () => Promise<OdValidator>;
  /** the whole GET /v1/merchant exchange, DNS included */
  fetchTimeoutMs: number;
  /** the largest Merchant document read: the read stops at the first byte beyond it */
  maxDocumentBytes: number;
  /** the resolver of outgoing calls (EGRESS_DNS_SERVERS, EGRESS_DNS_TIMEOUT) */
  dns: EgressDns;
  /** reads in flight in this replica (OD_MERCHANT_FETCHES) */
  slots: FetchSlots;
  /** after a store's read, its next one waits this long (OD_MERCHANT_FETCH_COOLDOWN) */
  cooldownMs: number;
}

/** The caller's store (a credential is bound to one store). */
export function credentialStore(req: ServedRequest): string {
  if (!req.auth) throw new HttpException(errors.notFound(req.traceId));
  return req.auth.merchantId.toLowerCase();
}

/** The store of a public request: the path's merchantId, which must be the credential's (else 404). */
export function ownMerchantId(req: ServedRequest<{ merchantId: string }>): string {
  const id = req.params.merchantId;
  if (!isGuid(id) || !req.auth || id.toLowerCase() !== req.auth.merchantId.toLowerCase())
    throw new HttpException(errors.notFound(req.traceId));
  return id.toLowerCase();
}

/** The store of an admin request: a GUID path param (else 404 not_found). */
export function adminMerchantId(req: ServedRequest<{ merchantId: string }>): string {
  const id = req.params.merchantId;
  if (!isGuid(id)) throw new HttpException(errors.adminNotFound('Estabelecimento'));
  return id.toLowerCase();
}

export const storeNotFound = () => new HttpException(errors.adminNotFound('Estabelecimento'));
