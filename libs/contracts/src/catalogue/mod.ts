import { PANEL_OPS } from '../panel.ts';
import { AUTH_INTERNAL_OPS, CREDENTIAL_OPS, SECRETS_OPS } from './auth.ts';
import { CATALOG_OPS } from './catalog.ts';
import { FEED_OPS } from './feed.ts';
import { ORDER_OPS } from './orders.ts';
import { WEBHOOK_OPS } from './webhook.ts';

export { adminOrderQuerySchema } from './orders.ts';
export { CATALOG_OPS, CREDENTIAL_OPS, FEED_OPS, ORDER_OPS, SECRETS_OPS, WEBHOOK_OPS };

/** The typed RPC catalogue: per service, every op it serves (`serve(RPC.orders, handlers)`). */
export const RPC = {
  auth: { ...CREDENTIAL_OPS, ...AUTH_INTERNAL_OPS, ...SECRETS_OPS },
  catalog: CATALOG_OPS,
  orders: ORDER_OPS,
  feed: FEED_OPS,
  webhook: WEBHOOK_OPS,
  panel: PANEL_OPS,
} as const;

/** Ops other services call (kept under their historical names). */
export const INTERNAL_OPS = {
  merchantSnapshot: CATALOG_OPS.merchantSnapshot,
  credentialsByMerchant: AUTH_INTERNAL_OPS.credentialsByMerchant,
  webhookSecrets: AUTH_INTERNAL_OPS.webhookSecrets,
  clientSecret: AUTH_INTERNAL_OPS.clientSecret,
} as const;
