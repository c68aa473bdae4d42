import type { NatsConnection } from '@nats-io/transport-node';
import type { CredentialsView, RpcClient } from '@od/bus';
import type { Config } from '@od/config';
import type { Names } from '@od/contracts';
import type { Logger } from '@od/logger';
import type { ZodApp } from '@od/runtime';
import type { Redis } from 'ioredis';
import type { GatewayReplicas } from './auth/credentials-sync.ts';
import type { Idempotency } from './idempotency/idempotency.ts';
import type { Limiter } from './limits/limiter.ts';
import type { EmptyPolls } from './routes/empty-polls.ts';

/** Everything a route module needs; built once at start. */
export interface GatewayContext {
  config: Config;
  names: Names;
  nc: NatsConnection;
  /** signed calls to the services, as the gateway (a front door) */
  rpc: RpcClient;
  redis: Redis;
  credentials: CredentialsView;
  /** the registry of gateway replicas: cross-replica credential barrier and this view's staleness */
  replicas: GatewayReplicas;
  log: Logger;
  limiter: Limiter;
  idempotency: Idempotency;
  /** credentials whose feed is known to be empty (the empty-poll fast path) */
  emptyPolls: EmptyPolls;
}

export type { ZodApp };

/** One file per route family registers its routes through this signature. */
export type RouteModule = (app: ZodApp, ctx: GatewayContext) => void;
