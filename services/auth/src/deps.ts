import type { KV } from '@nats-io/kv';
import type { NatsConnection } from '@nats-io/transport-node';
import type { RpcClient } from '@od/bus';
import type { Config } from '@od/config';
import type { Names } from '@od/contracts';
import type { SecretBox } from '@od/crypto';
import type { Pool } from '@od/db';
import type { Logger } from '@od/logger';
import type { Db } from './db/client.ts';

/** What every auth handler needs. */
export interface AuthDeps {
  db: Db;
  /** the pool under `db`: plain SQL where loading Prisma's query compiler is not worth it */
  pool: Pool;
  kv: KV;
  nc: NatsConnection;
  names: Names;
  /** signed calls to other services, as auth */
  rpc: RpcClient;
  config: Config;
  log: Logger;
  /** encrypts webhook secrets at rest (SECRETS_KEYS) */
  box: SecretBox;
}
