import type { NatsConnection, Subscription } from '@nats-io/transport-node';
import {
  connectBus,
  createRpcClient,
  loadRpcKeys,
  type RpcClient,
  type StoreResolvers,
  serveOp,
  serveOps,
} from '@od/bus';
import type { Config } from '@od/config';
import {
  type Catalogue,
  type Handlers,
  type Names,
  names,
  type RpcResult,
  type ServiceName,
} from '@od/contracts';
import { createPool, isDbUnavailable, migrate, type Pool } from '@od/db';
import { errors, HttpException } from '@od/errors';
import { createLogger, type Logger } from '@od/logger';
import { registerPool, traceQueries } from '@od/telemetry';
import { watchConsumer } from './consumer-watch.ts';
import { busCheck, type OpsListener, type ReadyCheck, startOps } from './ops.ts';

export interface ServiceBase {
  name: ServiceName;
  config: Config;
  log: Logger;
  nc: NatsConnection;
  names: Names;
  pool: Pool;
  /**
   * Serves every op of this service's catalogue (`RPC.<service>`), queue group = service name: each
   * request's signed caller is verified against the op's callers before its handler runs.
   */
  /** `storeOf`: how this service finds the store of a credential or order a merchant user names */
  serve<C extends Catalogue>(catalogue: C, handlers: Handlers<C>, opts?: { storeOf?: StoreResolvers }): void;
  /** signed, typed calls to other services, as this service */
  rpc: RpcClient;
  /** /metrics, /livez, /readyz; add the service's own readiness checks with `ops.check()` */
  ops: OpsListener;
  /** marks a durable consumer declared in `consumers` as attached (readiness waits for it) */
  attached(consumer: string): void;
  /** runs `fn` in close() (unregisters metric sources) */
  onClose(fn: () => void): void;
  /** closes subscriptions, NATS and the pool (call last in the service's stop) */
  close(): Promise<void>;
}

/** What a service's `start(config, opts)` may be given (tests pass their own logger). */
export interface StartOptions {
  log?: Logger;
}

/**
 * The common start of every service: logger, migrations of its own schema (safe on every replica),
 * a pool pinned to that schema, NATS, and a `health` RPC.
 */
export async function startServiceBase(
  name: ServiceName,
  config: Config,
  opts: StartOptions,
  db: {
    migrationsDir: string;
    poolSize?: number;
    /** durable order-event consumers: readiness waits until each is `attached()`; lag gauges */
    consumers?: string[];
  },
): Promise<ServiceBase> {
  const log = opts.log ?? createLogger(name, config.LOG_LEVEL);
  // the ops listener first: /livez answers and /readyz says what is missing while migrations run
  const ops = await startOps({ name, port: config.OPS_PORT, host: config.OPS_HOST, log });
  let migrated = false;
  ops.check('migrations', () => migrated);
  await migrate({ databaseUrl: config.DATABASE_URL, schema: name, dir: db.migrationsDir });
  migrated = true;
  const pool = createPool(config.DATABASE_URL, name, db.poolSize ?? 10);
  pool.on('error', (err) => log.error({ err }, 'pg pool error'));
  const unregisterPool = registerPool(name, pool);
  traceQueries(pool, name);
  ops.check('database', async () => (await pool.query('SELECT 1')).rowCount === 1);
  let bus: ReadyCheck = () => false;
  ops.check('bus', () => bus());
  const nc = await connectBus(config, name, log);
  bus = busCheck(nc);
  const n = names(config.NATS_PREFIX);
  const keys = loadRpcKeys(name, config);
  const serveOpts = { queue: name, log, keys };
  const closers: (() => void)[] = [unregisterPool];
  const consumers = new Map(
    (db.consumers ?? []).map((c) => [c, watchConsumer(nc, n.orderEventsStream, c, ops)] as const),
  );
  for (const w of consumers.values()) closers.push(w.stop);
  const subs: Subscription[] = [];
  const degraded = dbUnavailableAnswer(log);
  const serve = <C extends Catalogue>(
    catalogue: C,
    handlers: Handlers<C>,
    o: { storeOf?: StoreResolvers } = {},
  ) => {
    for (const op of Object.values(catalogue))
      if (op.service !== name) throw new Error(`${name} cannot serve ${op.service}.${op.name}`);
    const guarded = Object.fromEntries(
      Object.entries(handlers).map(([k, h]) => [k, degraded(h as Handler)]),
    ) as unknown as Handlers<C>;
    subs.push(...serveOps(nc, n, catalogue, guarded, { ...serveOpts, storeOf: o.storeOf }));
  };
  // health reads nothing of any store: open to any caller (the admin health route, probes)
  const health = { service: name, name: 'health', callers: 'any' } as const;
  subs.push(
    serveOp(
      nc,
      n.rpc(name, health.name),
      health,
      async () => {
        await pool.query('SELECT 1');
        return { status: 200, body: { status: 'ok' } };
      },
      serveOpts,
    ),
  );
  return {
    name,
    config,
    log,
    nc,
    names: n,
    pool,
    ops,
    serve,
    rpc: createRpcClient(nc, n, name, keys),
    attached: (c) => consumers.get(c)?.attached(),
    onClose: (fn) => void closers.push(fn),
    async close() {
      await ops.close();
      for (const fn of closers) fn();
      for (const s of subs) s.unsubscribe();
      await nc.drain().catch(() => {});
      await pool.end().catch(() => {});
    },
  };
}

type Handler = (req: { traceId: string }) => Promise<RpcResult> | RpcResult;

/**
 * Wraps a handler: a database that cannot be reached (see `isDbUnavailable`) answers 503 with
 * Retry-After (retryable), not 500; logged at most once per second. The pool's timeouts bound how
 * long that takes, so the gateway gets the answer well inside its budget.
 */
function dbUnavailableAnswer(log: Logger) {
  let lastLogAt = 0;
  let suppressed = 0;
  return (h: Handler): Handler =>
    async (req) => {
      try {
        return await h(req);
      } catch (e) {
        if (!isDbUnavailable(e)) throw e;
        const now = Date.now();
        if (now - lastLogAt >= 1000) {
          log.error({ err: (e as Error).message, traceId: req.traceId, suppressed }, 'database unavailable');
          lastLogAt = now;
          suppressed = 0;
        } else suppressed++;
        throw new HttpException(errors.unavailable(req.traceId));
      }
    };
}
