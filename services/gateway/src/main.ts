import type { AddressInfo } from 'node:net';
import { connectBus, createRpcClient, loadRpcKeys, openCredentialsKv, watchCredentials } from '@od/bus';
import type { Config } from '@od/config';
import { names } from '@od/contracts';
import { createLogger } from '@od/logger';
import { busCheck, runMain, type ServiceHandle, type StartOptions, startOps } from '@od/runtime';
import { traceRedis } from '@od/telemetry';
import { Redis } from 'ioredis';
import { joinGatewayRegistry } from './auth/credentials-sync.ts';
import type { GatewayContext } from './context.ts';
import { buildAdminApp } from './http/admin-app.ts';
import { buildPublicApp } from './http/public-app.ts';
import { createIdempotency } from './idempotency/idempotency.ts';
import { createLimiter } from './limits/limiter.ts';
import { createEmptyPolls } from './routes/empty-polls.ts';

/**
 * Bound on one Redis round trip (p99 is far below 1 ms on a healthy Redis). A hung Redis costs a
 * request at most two of them (limiter, idempotency): still an answer within 1 s.
 */
export const REDIS_COMMAND_TIMEOUT_MS = 400;

export interface GatewayHandle extends ServiceHandle {
  publicUrl: string;
  adminUrl: string;
  ctx: GatewayContext;
}

export async function start(config: Config, opts: StartOptions = {}): Promise<GatewayHandle> {
  const log = opts.log ?? createLogger('gateway', config.LOG_LEVEL);
  const ops = await startOps({ name: 'gateway', port: config.OPS_PORT, host: config.OPS_HOST, log });
  const n = names(config.NATS_PREFIX);
  const nc = await connectBus(config, 'gateway', log);
  // Redis down: commands fail at once (no offline queue); hung: after REDIS_COMMAND_TIMEOUT_MS.
  // The limiter then counts on this replica alone, a keyed action answers 503 (see limits/, idempotency/).
  const redis = new Redis(config.REDIS_URL, {
    maxRetriesPerRequest: 1,
    enableOfflineQueue: false,
    lazyConnect: false,
    commandTimeout: REDIS_COMMAND_TIMEOUT_MS,
    connectTimeout: 2_000,
    retryStrategy: (times) => Math.min(100 * times, 1_000),
    // no auto-pipelining: with a hung Redis it stretched a keyed action's 503 past its 1 s bound
    // (tests/degrade.test.ts), for a CPU gain within the measurements' noise
    enableAutoPipelining: false,
  });
  traceRedis(redis, 'gateway');
  redis.on('error', (err) => log.warn({ err: err.message }, 'redis error'));
  const credentials = await watchCredentials(
    await openCredentialsKv(nc, n, config.ORDER_EVENTS_REPLICAS),
    log,
    undefined,
    nc,
  );
  await credentials.ready;
  const replicas = await joinGatewayRegistry(nc, n, credentials, log, config.ORDER_EVENTS_REPLICAS);
  // Redis is no readiness condition: without it the gateway degrades (limits counted per replica), and
  // failing readiness would take every replica out at once
  ops.check('bus', busCheck(nc));
  const ctx: GatewayContext = {
    config,
    names: n,
    nc,
    rpc: createRpcClient(nc, n, 'gateway', loadRpcKeys('gateway', config)),
    redis,
    credentials,
    replicas,
    log,
    limiter: createLimiter(redis, config.NATS_PREFIX, config.RATE_LIMIT_ENABLED, log),
    idempotency: createIdempotency(redis, config.NATS_PREFIX, { log }),
    emptyPolls: createEmptyPolls(nc, n, log),
  };
  const pub = await buildPublicApp(ctx);
  const admin = await buildAdminApp(ctx);
  await pub.listen({ host: config.HOST, port: config.PORT });
  await admin.listen({ host: config.HOST, port: config.ADMIN_PORT });
  const url = (a: AddressInfo) => `http://${a.family === 'IPv6' ? `[${a.address}]` : a.address}:${a.port}`;
  return {
    publicUrl: url(pub.server.address() as AddressInfo),
    adminUrl: url(admin.server.address() as AddressInfo),
    ctx,
    async stop() {
      await ops.close();
      await Promise.allSettled([pub.close(), admin.close()]);
      await replicas.stop();
      ctx.emptyPolls.stop();
      credentials.stop();
      redis.disconnect();
      await nc.drain().catch(() => {});
    },
  };
}

export const main = () => runMain('gateway', start);
