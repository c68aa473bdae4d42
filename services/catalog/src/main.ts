import path from 'node:path';
import type { Config } from '@od/config';
import { RPC } from '@od/contracts';
import { createSecretBox, parseKeyring } from '@od/crypto';
import { createEgressDns } from '@od/egress';
import { type OdValidator, odValidator } from '@od/opendelivery/validator';
import { runMain, type ServiceHandle, type StartOptions, startServiceBase } from '@od/runtime';
import { CatalogDb } from './db/catalog-db.ts';
import { resealOdApiKeys } from './db/od-source.ts';
import { StoreCache } from './db/store-cache.ts';
import { FetchSlots } from './domain/fetch-slots.ts';
import { adminCreate } from './handlers/admin-create.ts';
import { adminGet } from './handlers/admin-get.ts';
import { adminGetMenu } from './handlers/admin-get-menu.ts';
import { adminPatch } from './handlers/admin-patch.ts';
import { adminPutMenu } from './handlers/admin-put-menu.ts';
import type { HandlerDeps } from './handlers/common.ts';
import { getMenus } from './handlers/get-menus.ts';
import { getMerchant } from './handlers/get-merchant.ts';
import { merchantSnapshot } from './handlers/merchant-snapshot.ts';
import { odMenuUpdated } from './handlers/od-menu-updated.ts';
import { odMerchantStatus } from './handlers/od-merchant-status.ts';
import { odOnboarding } from './handlers/od-onboarding.ts';
import { secretsRotateKey } from './handlers/secrets-rotate-key.ts';

const MIGRATIONS = path.join(import.meta.dirname, '..', 'prisma', 'migrations');

/** Open Delivery `GET /v1/merchant` reads: the whole exchange, and the largest document taken. */
export const OD_FETCH_TIMEOUT_MS = 10_000;
export const OD_MAX_DOCUMENT_BYTES = 1024 * 1024;

export { sampleMenu, sampleMerchant } from './domain/sample.ts';

export async function start(config: Config, opts: StartOptions = {}): Promise<ServiceHandle> {
  const base = await startServiceBase('catalog', config, opts, { migrationsDir: MIGRATIONS });
  const db = new CatalogDb(base.pool);
  const cache = new StoreCache((id) => db.rendered(id), {
    ttlMs: 60_000,
    maxBytes: 64 * 1024 * 1024,
  });
  const subject = base.names.catalogChanged;
  // every replica (no queue group) drops a store edited by any replica
  const invalidations = base.nc.subscribe(subject, {
    callback: (err, msg) => {
      if (err) return cache.clear();
      cache.invalidate(msg.string());
    },
  });
  // an invalidation may be lost while disconnected: start over after any connection trouble
  void (async () => {
    for await (const s of base.nc.status()) {
      if (s.type === 'disconnect' || s.type === 'reconnect') cache.clear();
    }
  })().catch(() => {});
  const changed = (merchantId: string) => {
    cache.invalidate(merchantId);
    try {
      base.nc.publish(subject, merchantId);
    } catch (err) {
      base.log.error(
        { err, merchantId },
        'catalog: invalidation not published (other replicas expire it by TTL)',
      );
    }
  };
  const box = createSecretBox(parseKeyring(config.SECRETS_KEYS, config.SECRETS_ACTIVE_KEY));
  const sealed = await resealOdApiKeys(db, box);
  if (sealed.resealed || sealed.unreadable.length)
    base.log.info(sealed, 'Open Delivery api keys sealed under the active key');
  // the official document is parsed on the first read of a point of sale (~200 ms, ~8 MB)
  let validator: Promise<OdValidator> | undefined;
  const deps: HandlerDeps = {
    db,
    cache,
    changed,
    now: () => new Date(),
    od: {
      box,
      allowPrivateNetworks: config.WEBHOOK_ALLOW_PRIVATE_NETWORKS,
      validator: () => {
        validator ??= odValidator().catch((e) => {
          validator = undefined;
          throw e;
        });
        return validator;
      },
      fetchTimeoutMs: OD_FETCH_TIMEOUT_MS,
      maxDocumentBytes: OD_MAX_DOCUMENT_BYTES,
      dns: createEgressDns({ servers: config.EGRESS_DNS_SERVERS, timeoutMs: config.EGRESS_DNS_TIMEOUT }),
      slots: new FetchSlots(config.OD_MERCHANT_FETCHES),
      cooldownMs: config.OD_MERCHANT_FETCH_COOLDOWN,
    },
  };
  base.serve(RPC.catalog, {
    getMerchant: getMerchant(deps),
    getMenus: getMenus(deps),
    adminCreate: adminCreate(deps),
    adminGet: adminGet(deps),
    adminPatch: adminPatch(deps),
    adminGetMenu: adminGetMenu(deps),
    adminPutMenu: adminPutMenu(deps),
    merchantSnapshot: merchantSnapshot(deps),
    odOnboarding: odOnboarding(deps),
    odMerchantStatus: odMerchantStatus(deps),
    odMenuUpdated: odMenuUpdated(deps),
    rotateKey: secretsRotateKey(deps, base.log),
  });
  return {
    async stop() {
      invalidations.unsubscribe();
      await db.close().catch(() => {});
      await base.close();
    },
  };
}

export const main = () => runMain('catalog', start);
