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

  const add = (column: string) => `ALTER TABLE orders ADD COLUMN ${column};`;
  const alter = (change: string) => `ALTER TABLE orders ${change};`;
  const dropTotal = alter('DROP COLUMN total');
  const marked = '-- migration-check: allow drop orders.total: unused since 20260102000000_step\n';
  const setNotNull = alter('ALTER COLUMN total SET NOT NULL');
  const backfill = 'UPDATE orders SET total = 0 WHERE total IS NULL;';
  const index = 'CREATE INDEX orders_total_idx ON orders (total);';
  const indexOk = '-- migration-check: allow index-lock orders: a few thousand rows (retention 7 days)\n';
  const ownTable = 'CREATE TABLE t (id uuid);';
  /** what -> [the new migration, the rules it breaks, earlier migrations after init] */
  const CASES: Record<string, [string, string[], string[]?]> = {
    'volatile default': [add('code text NOT NULL DEFAULT gen_random_uuid()::text'), ['volatile-default']],
    'serial column': [add('n bigserial'), ['volatile-default']],
    'constant default': [add("kind text NOT NULL DEFAULT 'A'"), []],
    'now() default (stable: no rewrite)': [add('at timestamptz NOT NULL DEFAULT now()'), []],
    'volatile default on its own new table': [
      `${ownTable} ALTER TABLE t ADD c uuid DEFAULT gen_random_uuid();`,
      [],
    ],
    'NOT NULL without default': [add('code text NOT NULL'), ['not-null-without-default']],
    'nullable column': [add('code text'), []],
    'drop table': ['DROP TABLE orders;', ['drop']],
    'drop column': [dropTotal, ['drop']],
    'drop with a marker naming an earlier migration': [`${marked}${dropTotal}`, [], ['SELECT 1;']],
    'drop with a marker naming no earlier migration': [`${marked}${dropTotal}`, ['drop']],
    'drop with a marker naming no migration': [
      '-- migration-check: allow drop orders: no\nDROP TABLE orders;',
      ['drop'],
    ],
    'drop of its own new table': [`${ownTable} DROP TABLE t;`, []],
    'rename column': [alter('RENAME COLUMN total TO amount'), ['rename']],
    'rename table': [alter('RENAME TO purchases'), ['rename']],
    'type change': [alter('ALTER COLUMN total TYPE bigint'), ['alter-type']],
    'SET NOT NULL without backfill': [setNotNull, ['set-not-null']],
    // the previous release may still write NULLs while this migration runs
    'SET NOT NULL after a backfill in the same migration': [`${backfill} ${setNotNull}`, ['set-not-null']],
    'SET NOT NULL after a backfill migration': [setNotNull, [], [backfill]],
    'index on an existing table': [index, ['index-lock']],
    'index with its marker': [`${indexOk}${index}`, []],
    'CONCURRENTLY (cannot run in the transaction)': [
      index.replace('INDEX', 'INDEX CONCURRENTLY'),
      ['concurrently'],
    ],
    'index on its own new table': [`${ownTable} CREATE INDEX t_idx ON t (id);`, []],
  };
  it.each(Object.entries(CASES))('%s', async (_what, [sql, broken, before]) => {
    expect(await rules(sql, before)).toEqual(broken);
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
