import { parse } from 'libpg-query';

/**
 * The rules a migration follows so that a rolling deploy survives it (docs/conventions.md
 * "Migrations"): during a rollout the previous release keeps running against the new schema, and
 * a statement that rewrites or scans a big table under an exclusive lock stops every write to it.
 * Checked with PostgreSQL's own parser (libpg-query) by `migration-rules.test.ts` over every
 * service's migrations; not used at run time.
 */
export type Rule =
  /** ADD COLUMN on an existing table with a volatile default (gen_random_uuid(), random(), a serial):
   * PostgreSQL rewrites the whole table under an ACCESS EXCLUSIVE lock */
  | 'volatile-default'
  /** ADD COLUMN ... NOT NULL without a default on an existing table: fails on a table with rows,
   * and the previous release's INSERTs do not set it */
  | 'not-null-without-default'
  /** DROP TABLE / DROP COLUMN of something that existed before: the previous release still reads
   * and writes it. Allowed one release after the release that stopped using it (the marker names
   * the migration of that release) */
  | 'drop'
  /** RENAME of a table or column: the previous release uses the old name */
  | 'rename'
  /** ALTER COLUMN ... TYPE: a rewrite under an exclusive lock, and the previous release's values */
  | 'alter-type'
  /** SET NOT NULL without an earlier migration backfilling the column (UPDATE of that table) */
  | 'set-not-null'
  /** CREATE INDEX on an existing table blocks its writes while it builds: allowed with a marker
   * saying why the table is small (or bounded) */
  | 'index-lock'
  /** CREATE INDEX CONCURRENTLY cannot run here: the runner applies each migration in a transaction */
  | 'concurrently';

export interface Migration {
  service: string;
  /** folder name, `<stamp>_<name>` */
  name: string;
  sql: string;
}

export interface Violation {
  migration: string;
  rule: Rule;
  target: string;
  message: string;
}

/**
 * Migrations applied before these rules existed (databases have run them: the runner refuses an
 * edited migration, libs/db migrate.ts), each with what it breaks and why it stays. New ones are
 * never added here: a new migration follows the rules or carries a marker.
 */
export const GRANDFATHERED: Record<string, { rules: Rule[]; reason: string }> = {
  'orders/20261123181000_orders_document_read_model': {
    rules: ['drop', 'index-lock'],
    reason:
      'dropped the child tables and copied columns the release before it still wrote (expand/contract ' +
      'should have kept them one more release); shipped before any production deploy',
  },
  'orders/20261123220000_open_delivery_flows': {
    rules: ['volatile-default'],
    reason:
      'delivery_code NOT NULL DEFAULT <gen_random_uuid()> rewrites orders under an exclusive lock; the ' +
      'safe form is: add the column nullable, backfill in batches, default in the code, SET NOT NULL later',
  },
  'feed/20261123201000_order_hold': {
    rules: ['index-lock'],
    reason: 'indexes built on events and feed_entries without CONCURRENTLY; bounded by retention (30 days)',
  },
  'webhook/20261122160000_pending_by_client': {
    rules: ['index-lock'],
    reason: 'index on delivery built in place; the table was new in the same release',
  },
};
/** grandfathering is for what was applied before the rules: nothing at or after this stamp */
export const GRANDFATHER_CUTOFF = '20261125000000';

/**
 * `-- migration-check: allow <rule> <target>: <reason>` in a migration accepts one finding, e.g.
 * `-- migration-check: allow drop orders.legacy: unused since 20261201120000_stop_writing_legacy`
 * (for drop and rename the reason names the earlier migration of the release that stopped using it).
 */
const MARKER = /^--\s*migration-check:\s*allow\s+([a-z-]+)\s+(\S+?)\s*:\s*(\S.*)$/gm;
const STAMPED = /\b\d{14}_\w+/;

const VOLATILE = new Set([
  'gen_random_uuid',
  'uuid_generate_v1',
  'uuid_generate_v1mc',
  'uuid_generate_v4',
  'random',
  'clock_timestamp',
  'timeofday',
  'nextval',
  'txid_current',
]);
const SERIAL = new Set(['serial', 'serial4', 'serial8', 'bigserial', 'smallserial', 'serial2']);

type Node = Record<string, any>;

/** every node of a parse tree, depth first */
function* walk(node: unknown): Generator<Node> {
  if (Array.isArray(node)) for (const n of node) yield* walk(n);
  else if (node && typeof node === 'object') {
    yield node as Node;
    for (const v of Object.values(node)) yield* walk(v);
  }
}
const funcNames = (expr: unknown) =>
  [...walk(expr)]
    .filter((n) => n.FuncCall)
    .map((n) => (n.FuncCall.funcname as Node[]).map((f) => f.String.sval).at(-1) as string);
const typeName = (col: Node) => ((col.typeName?.names ?? []) as Node[]).map((n) => n.String.sval).at(-1);
const relOf = (r: Node | undefined) => (r?.relname as string) ?? '?';

interface Finding {
  rule: Rule;
  target: string;
  message: string;
}

function statementFindings(stmt: Node, created: Set<string>, backfilled: Set<string>): Finding[] {
  const out: Finding[] = [];
  const existing = (table: string) => !created.has(table);
  if (stmt.AlterTableStmt) {
    const table = relOf(stmt.AlterTableStmt.relation);
    if (!existing(table)) return out;
    for (const { AlterTableCmd: cmd } of stmt.AlterTableStmt.cmds as Node[]) {
      const col = cmd.def?.ColumnDef as Node | undefined;
      const target = `${table}.${cmd.name ?? col?.colname ?? '?'}`;
      if (cmd.subtype === 'AT_AddColumn' && col) {
        const constraints = ((col.constraints ?? []) as Node[]).map((c) => c.Constraint);
        const dflt = constraints.find((c) => c.contype === 'CONSTR_DEFAULT');
        const volatile = funcNames(dflt?.raw_expr).filter((f) => VOLATILE.has(f));
        if (volatile.length || SERIAL.has(typeName(col)))
          out.push({
            rule: 'volatile-default',
            target,
            message: `ADD COLUMN ${target} with a volatile default (${volatile.join(', ') || typeName(col)}) rewrites the table under an exclusive lock: add it nullable, backfill in batches, then SET NOT NULL one release later`,
          });
        else if (constraints.some((c) => c.contype === 'CONSTR_NOTNULL') && !dflt)
          out.push({
            rule: 'not-null-without-default',
            target,
            message: `ADD COLUMN ${target} NOT NULL without a default fails on rows that exist and on the previous release's INSERTs`,
          });
      } else if (cmd.subtype === 'AT_DropColumn')
        out.push({
          rule: 'drop',
          target,
          message: `DROP COLUMN ${target}: the previous release still uses it`,
        });
      else if (cmd.subtype === 'AT_AlterColumnType')
        out.push({
          rule: 'alter-type',
          target,
          message: `ALTER COLUMN ${target} TYPE rewrites the table and changes what the previous release reads`,
        });
      else if (cmd.subtype === 'AT_SetNotNull' && !backfilled.has(table))
        out.push({
          rule: 'set-not-null',
          target,
          message: `SET NOT NULL on ${target} without an earlier migration backfilling ${table} (UPDATE ... in batches)`,
        });
    }
  } else if (stmt.DropStmt && stmt.DropStmt.removeType === 'OBJECT_TABLE') {
    for (const obj of stmt.DropStmt.objects as Node[]) {
      const table = (obj.List.items as Node[]).map((i) => i.String.sval).at(-1) as string;
      if (existing(table))
        out.push({
          rule: 'drop',
          target: table,
          message: `DROP TABLE ${table}: the previous release still uses it`,
        });
    }
  } else if (stmt.RenameStmt) {
    const table = relOf(stmt.RenameStmt.relation);
    if (existing(table)) {
      const target = stmt.RenameStmt.subname ? `${table}.${stmt.RenameStmt.subname}` : table;
      out.push({
        rule: 'rename',
        target,
        message: `RENAME of ${target}: the previous release uses the old name`,
      });
    }
  } else if (stmt.IndexStmt) {
    const table = relOf(stmt.IndexStmt.relation);
    if (stmt.IndexStmt.concurrent)
      out.push({
        rule: 'concurrently',
        target: table,
        message: `CREATE INDEX CONCURRENTLY on ${table} cannot run inside the migration's transaction`,
      });
    else if (existing(table))
      out.push({
        rule: 'index-lock',
        target: table,
        message: `CREATE INDEX on ${table} blocks its writes while it builds: say why the table is small with a marker`,
      });
  }
  return out;
}

/**
 * Checks one service's migrations, in order. `earlier` is every migration name of the service before
 * the one checked, for markers and backfills.
 */
export async function checkMigrations(migrations: Migration[]): Promise<Violation[]> {
  const violations: Violation[] = [];
  const sorted = [...migrations].sort((a, b) => a.name.localeCompare(b.name));
  const backfilledBy = new Map<string, Set<string>>(); // service -> tables updated so far
  for (const [i, m] of sorted.entries()) {
    const id = `${m.service}/${m.name}`;
    const stmts = ((await parse(m.sql)).stmts ?? []).map((s: Node) => s.stmt as Node);
    const created = new Set(stmts.filter((s) => s.CreateStmt).map((s) => relOf(s.CreateStmt.relation)));
    const backfilled = backfilledBy.get(m.service) ?? new Set<string>();
    const earlier = new Set(
      sorted
        .slice(0, i)
        .filter((e) => e.service === m.service)
        .map((e) => e.name),
    );
    const allowed = [...m.sql.matchAll(MARKER)].map(([, rule, target, reason]) => ({ rule, target, reason }));
    const grandfathered = GRANDFATHERED[id]?.rules ?? [];
    for (const stmt of stmts)
      for (const f of statementFindings(stmt, created, backfilled)) {
        if (grandfathered.includes(f.rule)) continue;
        const marker = allowed.find(
          (a) => a.rule === f.rule && (a.target === f.target || a.target === f.target.split('.')[0]),
        );
        if (marker) {
          const named = STAMPED.exec(marker.reason)?.[0];
          if (!['drop', 'rename'].includes(f.rule) || (named && earlier.has(named))) continue;
          violations.push({
            migration: id,
            rule: f.rule,
            target: f.target,
            message: `${f.message}; the marker must name an earlier migration of ${m.service} (the release that stopped using it), not "${marker.reason}"`,
          });
          continue;
        }
        violations.push({ migration: id, ...f });
      }
    // what this migration backfills counts for the following ones (never for itself)
    for (const s of stmts) if (s.UpdateStmt) backfilled.add(relOf(s.UpdateStmt.relation));
    backfilledBy.set(m.service, backfilled);
  }
  return violations;
}
