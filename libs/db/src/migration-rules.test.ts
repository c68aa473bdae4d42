import { readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { listMigrations } from './migrate.ts';
import { checkMigrations, GRANDFATHER_CUTOFF, GRANDFATHERED, type Migration } from './migration-rules.ts';

const ROOT = path.resolve(import.meta.dirname, '../../..');
async function allMigrations(): Promise<Migration[]> {
  const out: Migration[] = [];
  for (const service of readdirSync(path.join(ROOT, 'services'))) {
    const dir = path.join(ROOT, 'services', service, 'prisma', 'migrations');
    const list = await listMigrations(dir).catch(() => []);
    for (const m of list) out.push({ service, name: m.name, sql: m.sql });
  }
  return out;
}
/** a service with an existing `orders` table (created by its first migration) and one new migration */
const sample = (sql: string, before: string[] = []): Migration[] => [
  { service: 's', name: '20260101000000_init', sql: 'CREATE TABLE orders (id uuid PRIMARY KEY, total int);' },
  ...before.map((b, i) => ({ service: 's', name: `2026010${i + 2}000000_step`, sql: b })),
  { service: 's', name: '20260201000000_next', sql },
];
const rules = async (sql: string, before?: string[]) =>
  (await checkMigrations(sample(sql, before))).map((v) => v.rule);

describe('migrations a rolling deploy survives (docs/conventions.md "Migrations")', () => {
  it('every migration of every service follows the rules (the grandfathered ones aside)', async () => {
    const all = await allMigrations();
    expect(all.length).toBeGreaterThan(10);
    expect(await checkMigrations(all)).toEqual([]);
  });

  it('the grandfathered migrations are exactly the unsafe ones, each still found without its entry', async () => {
    const all = await allMigrations();
    for (const [id, g] of Object.entries(GRANDFATHERED)) {
      const [service, name] = id.split('/');
      expect(name < GRANDFATHER_CUTOFF, id).toBe(true);
      const m = all.find((x) => x.service === service && x.name === name);
      expect(m, id).toBeDefined();
      // renamed, the same SQL is no longer grandfathered: each rule listed fires
      const found = await checkMigrations([
        ...all.filter((x) => x.service === service && x.name < name),
        { ...(m as Migration), name: `${name}_copy` },
      ]);
      expect([...new Set(found.map((v) => v.rule))].sort(), id).toEqual([...g.rules].sort());
    }
    // the two the issue names: a drop of tables the previous release writes, a volatile default
    expect(GRANDFATHERED['orders/20261123181000_orders_document_read_model'].rules).toContain('drop');
    expect(GRANDFATHERED['orders/20261123220000_open_delivery_flows'].rules).toEqual(['volatile-default']);
  });

  it('a volatile default on an existing table is refused; a constant or now() is not', async () => {
    expect(
      await rules('ALTER TABLE orders ADD COLUMN code text NOT NULL DEFAULT gen_random_uuid()::text;'),
    ).toEqual(['volatile-default']);
    expect(await rules('ALTER TABLE orders ADD COLUMN n bigserial;')).toEqual(['volatile-default']);
    expect(await rules("ALTER TABLE orders ADD COLUMN kind text NOT NULL DEFAULT 'A';")).toEqual([]);
    expect(await rules('ALTER TABLE orders ADD COLUMN at timestamptz NOT NULL DEFAULT now();')).toEqual([]);
    // on a table created in the same migration anything goes
    expect(
      await rules(
        'CREATE TABLE t (id uuid); ALTER TABLE t ADD COLUMN c uuid NOT NULL DEFAULT gen_random_uuid();',
      ),
    ).toEqual([]);
  });

  it('NOT NULL without a default on an existing table is refused', async () => {
    expect(await rules('ALTER TABLE orders ADD COLUMN code text NOT NULL;')).toEqual([
      'not-null-without-default',
    ]);
    expect(await rules('ALTER TABLE orders ADD COLUMN code text;')).toEqual([]);
  });

  it('a drop needs the marker naming the earlier migration of the release that stopped using it', async () => {
    expect(await rules('DROP TABLE orders;')).toEqual(['drop']);
    expect(await rules('ALTER TABLE orders DROP COLUMN total;')).toEqual(['drop']);
    const marked = '-- migration-check: allow drop orders.total: unused since 20260102000000_step\n';
    expect(await rules(`${marked}ALTER TABLE orders DROP COLUMN total;`, ['SELECT 1;'])).toEqual([]);
    // a marker naming no earlier migration is not enough
    expect(await rules(`${marked}ALTER TABLE orders DROP COLUMN total;`)).toEqual(['drop']);
    expect(await rules('-- migration-check: allow drop orders: not needed\nDROP TABLE orders;')).toEqual([
      'drop',
    ]);
    expect(await rules('CREATE TABLE tmp (id int); DROP TABLE tmp;')).toEqual([]);
  });

  it('renames and type changes are refused', async () => {
    expect(await rules('ALTER TABLE orders RENAME COLUMN total TO amount;')).toEqual(['rename']);
    expect(await rules('ALTER TABLE orders RENAME TO purchases;')).toEqual(['rename']);
    expect(await rules('ALTER TABLE orders ALTER COLUMN total TYPE bigint;')).toEqual(['alter-type']);
  });

  it('SET NOT NULL needs an earlier backfill migration', async () => {
    const set = 'ALTER TABLE orders ALTER COLUMN total SET NOT NULL;';
    expect(await rules(set)).toEqual(['set-not-null']);
    // a backfill in the same migration does not count: the previous release may still write NULLs
    expect(await rules(`UPDATE orders SET total = 0 WHERE total IS NULL; ${set}`)).toEqual(['set-not-null']);
    expect(await rules(set, ['UPDATE orders SET total = 0 WHERE total IS NULL;'])).toEqual([]);
  });

  it('CREATE INDEX on an existing table needs a marker; CONCURRENTLY cannot run in the transaction', async () => {
    expect(await rules('CREATE INDEX orders_total_idx ON orders (total);')).toEqual(['index-lock']);
    expect(
      await rules(
        '-- migration-check: allow index-lock orders: at most a few thousand rows (retention 7 days)\nCREATE INDEX orders_total_idx ON orders (total);',
      ),
    ).toEqual([]);
    expect(await rules('CREATE INDEX CONCURRENTLY orders_total_idx ON orders (total);')).toEqual([
      'concurrently',
    ]);
    expect(await rules('CREATE TABLE t (id int); CREATE INDEX t_idx ON t (id);')).toEqual([]);
  });

  it('a bad sample migration makes the whole check fail with a message', async () => {
    const v = await checkMigrations(
      sample('ALTER TABLE orders ADD COLUMN code text NOT NULL DEFAULT random()::text;'),
    );
    expect(v).toEqual([
      expect.objectContaining({
        migration: 's/20260201000000_next',
        rule: 'volatile-default',
        target: 'orders.code',
      }),
    ]);
    expect(v[0].message).toMatch(/rewrites the table under an exclusive lock/);
  });
});
