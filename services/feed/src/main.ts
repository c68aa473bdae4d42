import path from 'node:path';
import { ensureOrderEventStream, streamSettings } from '@od/bus';
import type { Config } from '@od/config';
import { FEED_RETENTION_DAYS, RPC } from '@od/contracts';
import { runMain, type ServiceHandle, type StartOptions, startServiceBase } from '@od/runtime';
import { FEED_CONSUMER, startFeedConsumer } from './consumer.ts';
import { startCredentialSync } from './credentials-sync.ts';
import { createDb } from './db/client.ts';
import { storeOfCredential } from './db/queries.ts';
import { runRetention } from './db/retention.ts';
import { pendingAnnouncer } from './feed-pending.ts';
import { ackHandler } from './handlers/ack.ts';
import { adminEventsHandler } from './handlers/admin-events.ts';
import { historyHandler } from './handlers/history.ts';
import { pollHandler } from './handlers/poll.ts';
import { storeHealthHandler } from './handlers/store-health.ts';
import { registerFeedGauges } from './metrics.ts';

const MIGRATIONS = path.join(import.meta.dirname, '..', 'prisma', 'migrations');
/** The retention job runs hourly on every replica (a try-lock lets one do the work). */
const RETENTION_EVERY_MS = 60 * 60 * 1000;

export async function start(config: Config, opts: StartOptions = {}): Promise<ServiceHandle> {
  const base = await startServiceBase('feed', config, opts, {
    migrationsDir: MIGRATIONS,
    consumers: [FEED_CONSUMER],
  });
  const { nc, names: n, pool, log } = base;
  const db = createDb(pool);
  const jsm = await ensureOrderEventStream(nc, n, streamSettings(config), log);
  // credentials first (not required for correctness: a late credential is backfilled)
  const announce = pendingAnnouncer(nc, n, log);
  const creds = await startCredentialSync(nc, n, pool, log, config.ORDER_EVENTS_REPLICAS, announce);
  const consumer = await startFeedConsumer({ nc, jsm, names: n, pool, log, announce });
  // a replica that stopped between a commit and its announcement: every gateway asks again
  announce('all');
  base.attached(FEED_CONSUMER);
  base.onClose(registerFeedGauges(pool));
  base.serve(
    RPC.feed,
    {
      poll: pollHandler(pool),
      ack: ackHandler(pool),
      history: historyHandler(pool),
      adminEvents: adminEventsHandler(db, pool),
      adminStoreHealth: storeHealthHandler(pool),
    },
    { storeOf: { clientId: storeOfCredential(pool) } },
  );
  const retention = async () => {
    try {
      const r = await runRetention(pool, { days: FEED_RETENTION_DAYS });
      if (r.entries || r.events) log.info(r, 'feed retention');
    } catch (err) {
      log.error({ err }, 'feed retention failed');
    }
  };
  const first = setTimeout(retention, 30_000 + Math.random() * 30_000);
  const timer = setInterval(retention, RETENTION_EVERY_MS);
  first.unref();
  timer.unref();
  return {
    async stop() {
      clearTimeout(first);
      clearInterval(timer);
      await consumer.stop();
      creds.stop();
      await db.$disconnect().catch(() => {});
      await base.close();
    },
  };
}

export const main = () => runMain('feed', start);
