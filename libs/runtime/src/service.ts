import type { NatsConnection, Subscription } from '@nats-io/transport-node';
import { connectBus, type RpcHandler, serveRpc } from '@od/bus';
import type { Config } from '@od/config';
import { type Names, names, type ServiceName } from '@od/contracts';
import { createPool, migrate, type Pool } from '@od/db';
import { createLogger, type Logger } from '@od/logger';
import type { StartOptions } from './mod.ts';

export interface ServiceBase {
  name: ServiceName;
  config: Config;
  log: Logger;
  nc: NatsConnection;
  names: Names;
  pool: Pool;
  /** serves `<prefix>.rpc.<service>.<op>` for each handler, queue group = service name */
  serve(handlers: Record<string, RpcHandler>): void;
  /** closes subscriptions, NATS and the pool (call last in the service's stop) */
  close(): Promise<void>;
}

/**
 * The common start of every service: logger, migrations of its own schema (safe on every replica),
 * a pool pinned to that schema, NATS, and a `health` RPC.
 */
export async function startServiceBase(
  name: ServiceName,
  config: Config,
  opts: StartOptions,
  db: { migrationsDir: string; poolSize?: number },
): Promise<ServiceBase> {
  const log = opts.log ?? createLogger(name, config.LOG_LEVEL);
  await migrate({ databaseUrl: config.DATABASE_URL, schema: name, dir: db.migrationsDir });
  const pool = createPool(config.DATABASE_URL, name, db.poolSize ?? 10);
  pool.on('error', (err) => log.error({ err }, 'pg pool error'));
  const nc = await connectBus(config.NATS_URL, name, log);
  const n = names(config.NATS_PREFIX);
  const subs: Subscription[] = [];
  const serve = (handlers: Record<string, RpcHandler>) => {
    for (const [op, h] of Object.entries(handlers)) subs.push(serveRpc(nc, n.rpc(name, op), name, h, log));
  };
  serve({
    health: async () => {
      await pool.query('SELECT 1');
      return { status: 200, body: { status: 'ok' } };
    },
  });
  return {
    name,
    config,
    log,
    nc,
    names: n,
    pool,
    serve,
    async close() {
      for (const s of subs) s.unsubscribe();
      await nc.drain().catch(() => {});
      await pool.end().catch(() => {});
    },
  };
}
