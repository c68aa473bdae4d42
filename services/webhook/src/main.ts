import path from 'node:path';
import { openCredentialsKv, streamSettings, watchCredentials } from '@od/bus';
import type { Config } from '@od/config';
import { type CredentialRecord, RPC } from '@od/contracts';
import { createAgent, createEgressDns } from '@od/egress';
import { runMain, type ServiceHandle, type StartOptions, startServiceBase } from '@od/runtime';
import { createDb } from './db/client.ts';
import { backfillCredential, pruneOld } from './db/deliveries.ts';
import { Dispatcher } from './dispatcher.ts';
import { notDeliverable } from './domain/targets.ts';
import { attemptsHandler } from './handlers/attempts.ts';
import { clearQueueHandler } from './handlers/clear-queue.ts';
import type { HandlerContext } from './handlers/context.ts';
import { deliveriesHandler } from './handlers/deliveries.ts';
import { resendHandler } from './handlers/resend.ts';
import { sendTestHandler } from './handlers/send-test.ts';
import { statusHandler } from './handlers/status.ts';
import { storeHealthHandler } from './handlers/store-health.ts';
import { CONSUMER_NAME, startIntake } from './intake.ts';
import { SecretsSource } from './secrets.ts';

const MIGRATIONS = path.join(import.meta.dirname, '..', 'prisma', 'migrations');

/** Per-credential (= per URL) concurrent deliveries in one replica. */
export const PER_URL_CAP = 4;
/** Concurrent deliveries in one replica. */
export const GLOBAL_CAP = 128;
/** Attempt log, finished deliveries and events are kept this long (the feed keeps events itself). */
export const RETENTION_DAYS = 30;
/** Credentials younger than this get deliveries for events stored before this replica saw them. */
export const BACKFILL_WINDOW_MS = 60_000;

export async function start(config: Config, opts: StartOptions = {}): Promise<ServiceHandle> {
  const base = await startServiceBase('webhook', config, opts, {
    migrationsDir: MIGRATIONS,
    poolSize: 16,
    consumers: [CONSUMER_NAME],
  });
  const { log, nc, pool } = base;
  const db = createDb(pool);
  const secrets = new SecretsSource(base.rpc);
  const kv = await openCredentialsKv(nc, base.names, config.ORDER_EVENTS_REPLICAS);
  let onCredential: (rec: CredentialRecord) => void = () => {};
  const credentials = await watchCredentials(kv, log, (rec) => {
    secrets.invalidate(rec.clientId);
    onCredential(rec);
  });
  await credentials.ready;
  // sockets per host: the per-URL cap is the dispatcher's; many credentials may share one host
  const dns = createEgressDns({ servers: config.EGRESS_DNS_SERVERS, timeoutMs: config.EGRESS_DNS_TIMEOUT });
  const agent = createAgent(config.WEBHOOK_ALLOW_PRIVATE_NETWORKS, GLOBAL_CAP, dns);
  const dispatcher = new Dispatcher({
    pool,
    log,
    credentials,
    secrets,
    agent,
    dns,
    allowPrivateNetworks: config.WEBHOOK_ALLOW_PRIVATE_NETWORKS,
    retryScale: config.WEBHOOK_RETRY_SCALE,
    appId: config.OD_APP_ID,
    globalCap: GLOBAL_CAP,
    perClientCap: PER_URL_CAP,
  });
  const ctx: HandlerContext = { pool, db, credentials, wake: () => dispatcher.wake() };
  base.serve(
    RPC.webhook,
    {
      attempts: attemptsHandler(ctx),
      deliveries: deliveriesHandler(ctx),
      status: statusHandler(ctx),
      resend: resendHandler(ctx),
      clearQueue: clearQueueHandler(ctx),
      sendTest: sendTestHandler(ctx, {
        secrets,
        agent,
        dns,
        allowPrivateNetworks: config.WEBHOOK_ALLOW_PRIVATE_NETWORKS,
        baseUrl: config.PUBLIC_BASE_URL,
      }),
      storeHealth: storeHealthHandler(ctx),
    },
    { storeOf: { clientId: async (id) => credentials.get(id)?.merchantId ?? null } },
  );
  const intake = await startIntake({
    nc,
    names: base.names,
    stream: streamSettings(config),
    pool,
    log,
    credentials,
    onDue: () => dispatcher.wake(),
  });
  base.attached(CONSUMER_NAME);
  // closes the race "credential created, first event processed before this replica saw it"
  onCredential = (rec) => {
    if (notDeliverable(rec) || Date.now() - Date.parse(rec.createdAt) > BACKFILL_WINDOW_MS) return;
    backfillCredential(pool, rec)
      .then((n) => n > 0 && dispatcher.wake())
      .catch((err) => log.warn({ err, clientId: rec.clientId }, 'webhook backfill failed'));
  };
  // retries scheduled before a restart (or by a replica that went away)
  dispatcher.wake();
  await dispatcher.armFromSchedule();
  const prune = setInterval(() => {
    pruneOld(pool, RETENTION_DAYS)
      .then((n) => n && log.info({ deleted: n }, 'webhook retention'))
      .catch((err) => log.warn({ err }, 'webhook retention failed'));
  }, 3_600_000);
  prune.unref();
  let stopped: Promise<void> | undefined;
  return {
    stop() {
      stopped ??= (async () => {
        clearInterval(prune);
        await intake.stop();
        await dispatcher.stop();
        credentials.stop();
        agent.destroy();
        await db.$disconnect().catch(() => {});
        await base.close();
      })();
      return stopped;
    },
  };
}

export const main = () => runMain('webhook', start);
