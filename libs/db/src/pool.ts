import pg from 'pg';

// timestamps come back as ISO strings built by us, never as local-time Date objects
pg.types.setTypeParser(1184, (v) => v); // timestamptz
pg.types.setTypeParser(20, (v) => Number(v)); // int8 -> number (sequences stay far below 2^53)

/**
 * Bounds of every pooled connection, so a service whose database is unreachable answers 503 itself
 * (see runtime's `serve`) before the gateway's RPC timeout (5 s) instead of hanging:
 * - CONNECT_TIMEOUT_MS: opening a connection, AND waiting for a free one when the pool is exhausted
 *   (pg-pool applies `connectionTimeoutMillis` to both). A stopped or restarting server refuses at
 *   once, so this bound only matters for a server that does not answer at all (network partition);
 *   it stays well above a loaded machine's connection set-up time.
 * - STATEMENT_TIMEOUT_MS: server side (`statement_timeout`): no statement runs longer.
 * - QUERY_TIMEOUT_MS: client side, for a server that stopped answering on an open connection.
 * Defaults; `createPool`'s options override them.
 */
export const CONNECT_TIMEOUT_MS = 2_000;
export const STATEMENT_TIMEOUT_MS = 4_000;
export const QUERY_TIMEOUT_MS = 4_500;

export interface PoolTimeouts {
  connectMs?: number;
  statementMs?: number;
  queryMs?: number;
}

/** One pool per service, search_path pinned to the service's schema; shared with Prisma's adapter. */
export function createPool(databaseUrl: string, schema: string, max = 10, t: PoolTimeouts = {}): pg.Pool {
  const pool = new pg.Pool({
    connectionString: databaseUrl,
    max,
    options: `-c search_path=${schema} -c statement_timeout=${t.statementMs ?? STATEMENT_TIMEOUT_MS}`,
    application_name: schema,
    connectionTimeoutMillis: t.connectMs ?? CONNECT_TIMEOUT_MS,
    query_timeout: t.queryMs ?? QUERY_TIMEOUT_MS,
    // a server that vanished without closing the socket is noticed by TCP keepalive
    keepAlive: true,
    keepAliveInitialDelayMillis: 10_000,
  });
  // A checked-out client has no pool listener: a connection dropped between two queries of a
  // transaction would emit an unhandled 'error' and kill the process. The query in progress (or the
  // next one) fails instead, and the pool discards the broken client on release.
  pool.on('connect', (client) => client.on('error', () => {}));
  return pool;
}

export type { Pool, PoolClient } from 'pg';
