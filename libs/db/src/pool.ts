import pg from 'pg';

// timestamps come back as ISO strings built by us, never as local-time Date objects
pg.types.setTypeParser(1184, (v) => v); // timestamptz
pg.types.setTypeParser(20, (v) => Number(v)); // int8 -> number (sequences stay far below 2^53)

/** One pool per service, search_path pinned to the service's schema; shared with Prisma's adapter. */
export function createPool(databaseUrl: string, schema: string, max = 10): pg.Pool {
  return new pg.Pool({
    connectionString: databaseUrl,
    max,
    options: `-c search_path=${schema}`,
    application_name: schema,
  });
}

export type { Pool, PoolClient } from 'pg';
