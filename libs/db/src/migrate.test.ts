import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { freshDatabase } from '@od/testing';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { migrate } from './migrate.ts';

async function migrationsDir(files: Record<string, string>) {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'mig-'));
  for (const [name, sql] of Object.entries(files)) {
    await mkdir(path.join(dir, name));
    await writeFile(path.join(dir, name, 'migration.sql'), sql);
  }
  return dir;
}

describe('migration runner', () => {
  it('applies pending migrations once, in order, with Prisma bookkeeping, on concurrent replicas', async () => {
    const db = await freshDatabase();
    try {
      const dir = await migrationsDir({
        '20260101000000_init': 'CREATE TABLE a (id int primary key);',
        '20260102000000_more': 'ALTER TABLE a ADD COLUMN b text;',
      });
      const results = await Promise.all(
        [1, 2, 3].map(() => migrate({ databaseUrl: db.url, schema: 'svc', dir })),
      );
      expect(results.flat().sort()).toEqual(['20260101000000_init', '20260102000000_more']);
      const c = new pg.Client({ connectionString: db.url });
      await c.connect();
      const { rows } = await c.query(
        'SELECT migration_name, length(checksum) AS l, finished_at IS NOT NULL AS done, applied_steps_count FROM svc._prisma_migrations ORDER BY migration_name',
      );
      await c.end();
      expect(rows).toEqual([
        { migration_name: '20260101000000_init', l: 64, done: true, applied_steps_count: 1 },
        { migration_name: '20260102000000_more', l: 64, done: true, applied_steps_count: 1 },
      ]);
      expect(await migrate({ databaseUrl: db.url, schema: 'svc', dir })).toEqual([]);
    } finally {
      await db.drop();
    }
  });

  it('refuses a migration edited after it was applied, and rolls back a failing one', async () => {
    const db = await freshDatabase();
    try {
      const dir = await migrationsDir({ '1_init': 'CREATE TABLE a (id int);' });
      await migrate({ databaseUrl: db.url, schema: 'svc', dir });
      await writeFile(path.join(dir, '1_init', 'migration.sql'), 'CREATE TABLE a (id bigint);');
      await expect(migrate({ databaseUrl: db.url, schema: 'svc', dir })).rejects.toThrow(/edited/);
      const dir2 = await migrationsDir({ '1_bad': 'CREATE TABLE x (id int); SELECT nonsense_fn();' });
      await expect(migrate({ databaseUrl: db.url, schema: 'other', dir: dir2 })).rejects.toThrow(/failed/);
      const c = new pg.Client({ connectionString: db.url });
      await c.connect();
      const { rows } = await c.query("SELECT to_regclass('other.x') AS t");
      await c.end();
      expect(rows[0].t).toBeNull();
    } finally {
      await db.drop();
    }
  });
});
