import { start as startAuth } from '@od/auth';
import { start as startCatalog } from '@od/catalog';
import type { Config } from '@od/config';
import { start as startFeed } from '@od/feed';
import { type GatewayHandle, start as startGateway } from '@od/gateway';
import { createLogger, type Logger } from '@od/logger';
import { start as startOrders } from '@od/orders';
import { type PanelHandle, start as startPanel } from '@od/panel';
import type { ServiceHandle } from '@od/runtime';
import { start as startWebhook } from '@od/webhook';
import { cleanupNats, freshDatabase, testConfig, uniquePrefix } from './fixtures.ts';
import type { Infra } from './infra.ts';

export type ServiceKey = 'auth' | 'catalog' | 'orders' | 'feed' | 'webhook';
const STARTERS = {
  auth: startAuth,
  catalog: startCatalog,
  orders: startOrders,
  feed: startFeed,
  webhook: startWebhook,
};

export interface TestStack {
  config: Config;
  prefix: string;
  gateway: GatewayHandle;
  /** extra gateway replicas started with `gateways: n` */
  gateways: GatewayHandle[];
  services: Partial<Record<ServiceKey, ServiceHandle>>;
  /** the merchant panel, started with `panel: true` */
  panel?: PanelHandle;
  /** fetch against the public listener (path relative) */
  api(path: string, init?: RequestInit, gatewayIndex?: number): Promise<Response>;
  /** fetch against the admin listener, admin token included, JSON body helper */
  admin(method: string, path: string, body?: unknown): Promise<Response>;
  /** starts another replica of a service with the same config */
  startService(key: ServiceKey | 'gateway'): Promise<ServiceHandle>;
  stop(): Promise<void>;
}

export interface StackOptions {
  /** which services to run in-process (default all) */
  services?: ServiceKey[];
  /** number of gateway replicas (default 1) */
  gateways?: number;
  env?: Record<string, string>;
  /** also start the merchant panel service (its own listener, `stack.panel.url`) */
  panel?: boolean;
  /** extra env of one service (or the gateways), over `env`: e.g. its own NATS identity */
  serviceEnv?: Partial<Record<ServiceKey | 'gateway' | 'panel', Record<string, string>>>;
  /** NATS/Redis prefix (default a unique one): lets a test configure a server for it first */
  prefix?: string;
  /** logger for every service and gateway of the stack (e.g. one writing into memory) */
  log?: Logger;
  /** servers to use instead of the shared ones (fault tests run their own) */
  infra?: Infra;
}

/**
 * A whole isolated stack in this process: fresh database, own NATS/Redis prefix, ephemeral ports.
 * Tests talk to it only through HTTP, as an integrator would.
 */
export async function startStack(opts: StackOptions = {}): Promise<TestStack> {
  const db = await freshDatabase(opts.infra);
  const prefix = opts.prefix ?? uniquePrefix();
  const own: Record<string, string> = opts.infra
    ? { REDIS_URL: opts.infra.redisUrl, NATS_URL: opts.infra.natsUrl }
    : {};
  const config = testConfig(db.url, prefix, { ...own, ...opts.env });
  const configOf = (key: ServiceKey | 'gateway' | 'panel') =>
    opts.serviceEnv?.[key]
      ? testConfig(db.url, prefix, { ...own, ...opts.env, ...opts.serviceEnv[key] })
      : config;
  const log = opts.log ?? createLogger('test', config.LOG_LEVEL);
  const services: Partial<Record<ServiceKey, ServiceHandle>> = {};
  const extra: ServiceHandle[] = [];
  for (const key of opts.services ?? (Object.keys(STARTERS) as ServiceKey[])) {
    services[key] = await STARTERS[key](configOf(key), { log: log.child({ service: key }) });
  }
  const panel = opts.panel
    ? await startPanel(configOf('panel'), { log: log.child({ service: 'panel' }) })
    : undefined;
  const gateways: GatewayHandle[] = [];
  for (let i = 0; i < (opts.gateways ?? 1); i++)
    gateways.push(await startGateway(configOf('gateway'), { log: log.child({ service: 'gateway' }) }));
  const gateway = gateways[0];
  return {
    config,
    prefix,
    gateway,
    gateways,
    services,
    panel,
    api: (path, init, i = 0) => fetch(gateways[i].publicUrl + path, init),
    admin: (method, path, body) =>
      fetch(gateway.adminUrl + path, {
        method,
        headers: {
          authorization: `Bearer ${config.ADMIN_TOKEN}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      }),
    async startService(key) {
      const h =
        key === 'gateway'
          ? await startGateway(configOf('gateway'), { log })
          : await STARTERS[key](configOf(key), { log });
      extra.push(h);
      return h;
    },
    async stop() {
      for (const g of gateways) await g.stop().catch(() => {});
      for (const h of extra) await h.stop().catch(() => {});
      await panel?.stop().catch(() => {});
      for (const h of Object.values(services)) await h?.stop().catch(() => {});
      await cleanupNats(config.NATS_URL, prefix).catch(() => {});
      await db.drop();
    },
  };
}
