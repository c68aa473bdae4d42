import { createHash, randomUUID } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';

/**
 * Applies Prisma-layout SQL migrations (`<dir>/<stamp>_<name>/migration.sql`) and keeps Prisma's own
 * `_prisma_migrations` bookkeeping in the service's schema, so `prisma migrate deploy` can take over
 * wherever Prisma's native engine exists. Safe on every replica: one advisory lock per schema.
 */
export interface MigrateOptions {
  databaseUrl: string;
  /** PostgreSQL schema owned by the service */
  schema: string;
  /** folder holding the migration folders */
  dir: string;
}

// Prisma's own DDL for its bookkeeping table.
const BOOKKEEPING = `CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
  "id" VARCHAR(36) PRIMARY KEY NOT NULL,
  "checksum" VARCHAR(64) NOT NULL,
  "finished_at" TIMESTAMPTZ,
  "migration_name" VARCHAR(255) NOT NULL,
  "logs" TEXT,
  "rolled_back_at" TIMESTAMPTZ,
  "started_at" TIMESTAMPTZ NOT NULL DEFAULT now(),
  "applied_steps_count" INTEGER NOT NULL DEFAULT 0
)`;

export async function listMigrations(
  dir: string,
): Promise<{ name: string; sql: string; checksum: string }[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const names = entries
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();
  return Promise.all(
    names.map(async (name) => {
      const sql = await readFile(path.join(dir, name, 'migration.sql'), 'utf8');
      return { name, sql, checksum: createHash('sha256').update(sql).digest('hex') };
    }),
  );
}

export async function migrate(opts: MigrateOptions): Promise<string[]> {
  const client = new pg.Client({ connectionString: opts.databaseUrl });
  await client.connect();
  const applied: string[] = [];
  try {
    const ident = client.escapeIdentifier(opts.schema);
    await client.query('SELECT pg_advisory_lock(hashtext($1))', [`migrate:${opts.schema}`]);
    // a service role owning its schema (deploy/postgres/roles.sql) has no CREATE on the database:
    // create the schema only when it is missing
    const has = await client.query('SELECT 1 FROM pg_namespace WHERE nspname = $1', [opts.schema]);
    if (has.rowCount === 0) await client.query(`CREATE SCHEMA IF NOT EXISTS ${ident}`);
    await client.query(`SET search_path TO ${ident}`);
    await client.query(BOOKKEEPING);
    const done = await client.query<{ migration_name: string; checksum: string }>(
      'SELECT migration_name, checksum FROM "_prisma_migrations" WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL',
    );
    const doneByName = new Map(done.rows.map((r) => [r.migration_name, r.checksum]));
    for (const m of await listMigrations(opts.dir)) {
      const prior = doneByName.get(m.name);
      if (prior) {
        if (prior !== m.checksum)
          throw new Error(`migration ${opts.schema}/${m.name} was edited after it was applied`);
        continue;
      }
      const id = randomUUID();
      await client.query('BEGIN');
      try {
        await client.query(
          'INSERT INTO "_prisma_migrations" (id, checksum, migration_name, started_at) VALUES ($1, $2, $3, now())',
          [id, m.checksum, m.name],
        );
        await client.query(m.sql);
        await client.query(
          'UPDATE "_prisma_migrations" SET finished_at = now(), applied_steps_count = 1 WHERE id = $1',
          [id],
        );
        await client.query('COMMIT');
        applied.push(m.name);
      } catch (e) {
        await client.query('ROLLBACK');
        throw new Error(`migration ${opts.schema}/${m.name} failed: ${(e as Error).message}`);
      }
    }
  } finally {
    await client.query('SELECT pg_advisory_unlock_all()').catch(() => {});
    await client.end();
  }
  return applied;
}
