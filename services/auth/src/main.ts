import path from 'node:path';
import { openCredentialsKv } from '@od/bus';
import type { Config } from '@od/config';
import { RPC } from '@od/contracts';
import { createSecretBox, parseKeyring } from '@od/crypto';
import { runMain, type ServiceHandle, type StartOptions, startServiceBase } from '@od/runtime';
import { createDb } from './db/client.ts';
import { storeOfCredential } from './db/credentials.ts';
import { resealSecrets } from './db/secrets-at-rest.ts';
import type { AuthDeps } from './deps.ts';
import { clientSecret } from './handlers/client-secret.ts';
import { credentialsCreate } from './handlers/credentials-create.ts';
import { credentialsLifecycle } from './handlers/credentials-lifecycle.ts';
import { credentialsByMerchant } from './handlers/credentials-list.ts';
import { credentialsRotate } from './handlers/credentials-rotate.ts';
import { credentialsUpdate } from './handlers/credentials-update.ts';
import { secretsRotateKey } from './handlers/secrets-rotate-key.ts';
import { tokenIssue } from './handlers/token-issue.ts';
import { webhookSecrets } from './handlers/webhook-secrets.ts';
import { republishAll } from './publish.ts';

const MIGRATIONS = path.join(import.meta.dirname, '..', 'prisma', 'migrations');

export async function start(config: Config, opts: StartOptions = {}): Promise<ServiceHandle> {
  const base = await startServiceBase('auth', config, opts, { migrationsDir: MIGRATIONS });
  const db = createDb(base.pool);
  try {
    const kv = await openCredentialsKv(base.nc, base.names, config.ORDER_EVENTS_REPLICAS, {
      raise: true,
      log: base.log,
    });
    const box = createSecretBox(parseKeyring(config.SECRETS_KEYS, config.SECRETS_ACTIVE_KEY));
    const deps: AuthDeps = {
      db,
      pool: base.pool,
      kv,
      nc: base.nc,
      names: base.names,
      rpc: base.rpc,
      config,
      log: base.log,
      box,
    };
    // completes the key_id migration: rows stored before encryption are sealed under the active key
    const sealed = await resealSecrets(base.pool, box, 'plaintext');
    if (sealed.resealed || sealed.unreadable.length) base.log.info(sealed, 'plaintext secrets encrypted');
    await republishAll(base.pool, kv, base.log);
    const list = credentialsByMerchant(deps);
    base.serve(
      RPC.auth,
      {
        tokenIssue: tokenIssue(deps),
        create: credentialsCreate(deps),
        list,
        update: credentialsUpdate(deps),
        pause: credentialsLifecycle(deps, 'pause'),
        resume: credentialsLifecycle(deps, 'resume'),
        revoke: credentialsLifecycle(deps, 'revoke'),
        rotateWebhookSecret: credentialsRotate(deps),
        credentialsByMerchant: list,
        webhookSecrets: webhookSecrets(deps),
        clientSecret: clientSecret(deps),
        rotateKey: secretsRotateKey(deps),
      },
      { storeOf: { clientId: storeOfCredential(db) } },
    );
    await base.nc.flush(); // started = subscriptions known to the server (a request right after is served)
  } catch (e) {
    await db.$disconnect().catch(() => {});
    await base.close();
    throw e;
  }
  return {
    async stop() {
      await base.close();
      await db.$disconnect().catch(() => {});
    },
  };
}

export const main = () => runMain('auth', start);
