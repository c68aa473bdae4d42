import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { Config } from '@od/config';
import { PANEL_OPS } from '@od/contracts';
import { runMain, type ServiceHandle, type StartOptions, startServiceBase } from '@od/runtime';
import { traceRedis } from '@od/telemetry';
import { Redis } from 'ioredis';
import type { PanelContext } from './context.ts';
import { LoginLimiter } from './db/login-limiter.ts';
import { PanelDb } from './db/panel-db.ts';
import { SESSION_IDLE_MS } from './domain/session.ts';
import { boardCard } from './handlers/orders.ts';
import { userAdminHandlers } from './handlers/users-admin.ts';
import { buildPanelApp } from './http/app.ts';
import { PANEL_CONSUMER, startLiveOrders } from './live-orders.ts';
import { startLiveStreams } from './live-streams.ts';

// src/main.ts in development, dist/main.mjs when bundled: both one level below the service folder
const ROOT = path.join(import.meta.dirname, '..');
const MIGRATIONS = path.join(ROOT, 'prisma', 'migrations');
/** where `pnpm build` writes the page's bundle */
export const WEB_DIR = path.join(ROOT, 'dist', 'web');
const PRUNE_EVERY_MS = 10 * 60 * 1000;

export interface PanelHandle extends ServiceHandle {
  url: string;
}

export async function start(config: Config, opts: StartOptions = {}): Promise<PanelHandle> {
  const base = await startServiceBase('panel', config, opts, {
    migrationsDir: MIGRATIONS,
    poolSize: 5,
    consumers: [PANEL_CONSUMER],
  });
  const db = new PanelDb(base.pool);
  const redis = new Redis(config.REDIS_URL, { maxRetriesPerRequest: 1, enableOfflineQueue: false });
  traceRedis(redis, 'panel');
  redis.on('error', (err) => base.log.warn({ err: err.message }, 'redis error'));
  // the boards' cards are read through the handlers, which need the context built just below
  const live = await startLiveOrders(base, db, (merchantId, orderId) => boardCard(ctx, merchantId, orderId));
  const ctx: PanelContext = {
    base,
    db,
    limiter: new LoginLimiter(redis, base.names.redis),
    live,
    streams: startLiveStreams(redis, base.names.redis('panel:streams:revoke'), base.log),
    now: () => new Date(),
  };
  base.serve(PANEL_OPS, userAdminHandlers(ctx));
  const app = buildPanelApp(ctx, process.env.PANEL_WEB_DIR ?? WEB_DIR);
  await app.listen({ host: config.HOST, port: config.PANEL_PORT });
  const a = app.server.address() as AddressInfo;
  const prune = setInterval(() => {
    db.prune(new Date(), SESSION_IDLE_MS).catch((err) => base.log.warn({ err }, 'session prune failed'));
  }, PRUNE_EVERY_MS);
  prune.unref();
  return {
    url: `http://${a.family === 'IPv6' ? `[${a.address}]` : a.address}:${a.port}`,
    async stop() {
      clearInterval(prune);
      await ctx.streams.stop();
      await app.close().catch(() => {});
      await live.stop();
      redis.disconnect();
      await db.close().catch(() => {});
      await base.close();
    },
  };
}

export const main = () => runMain('panel', start);
