import type { NatsConnection } from '@nats-io/transport-node';
import type { RpcClient } from '@od/bus';
import type { Names } from '@od/contracts';
import type { Pool } from '@od/db';
import { errors, HttpException } from '@od/errors';
import type { OutboxRow } from './outbox/relay.ts';

/** What every handler needs. `wake` nudges the outbox relay right after a commit. */
export interface OrdersDeps {
  pool: Pool;
  nc: NatsConnection;
  names: Names;
  /** signed calls to other services (catalog's merchant snapshot) */
  rpc: RpcClient;
  baseUrl: string;
  wake(): void;
  /** hands a committed outbox row to this process's relay leader (write.ts: only when `alone`) */
  publishNow(row: OutboxRow): void;
  /** true when this process is the relay leader: in-process wake suffices, no NOTIFY needed */
  leads(): boolean;
}

export const notFound = () => new HttpException(errors.orderNotFound());
