import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { actualColumns, createPool, expectedColumns, migrate } from '@od/db';
import { freshDatabase } from './fixtures.ts';

/**
 * Migrates a fresh database with a service's SQL migrations and returns both column lists:
 * what the Prisma schema describes and what the migrations built. A test asserts they are equal.
 */
export async function schemaAgreement(serviceDir: string, schema: string) {
  const db = await freshDatabase();
  try {
    await migrate({ databaseUrl: db.url, schema, dir: path.join(serviceDir, 'prisma', 'migrations') });
    const pool = createPool(db.url, schema, 1);
    try {
      const prismaSchema = await readFile(path.join(serviceDir, 'prisma', 'schema.prisma'), 'utf8');
      return { expected: expectedColumns(prismaSchema), actual: await actualColumns(pool, schema) };
    } finally {
      await pool.end();
    }
  } finally {
    await db.drop();
  }
}
