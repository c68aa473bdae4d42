import { createRequire } from 'node:module';
import type pg from 'pg';

const require = createRequire(import.meta.url);

interface DmmfField {
  name: string;
  kind: string;
  isList: boolean;
  isRequired: boolean;
  type: string;
  dbName?: string | null;
  nativeType?: [string, string[]] | null;
  relationName?: string | null;
}
interface DmmfModel {
  name: string;
  dbName: string | null;
  fields: DmmfField[];
}

const SCALAR_TO_PG: Record<string, string> = {
  String: 'text',
  Int: 'integer',
  BigInt: 'bigint',
  Float: 'double precision',
  Decimal: 'numeric',
  Boolean: 'boolean',
  DateTime: 'timestamp without time zone',
  Json: 'jsonb',
  Bytes: 'bytea',
};
const NATIVE_TO_PG: Record<string, string> = {
  Uuid: 'uuid',
  Text: 'text',
  VarChar: 'character varying',
  Char: 'character',
  Timestamptz: 'timestamp with time zone',
  Timestamp: 'timestamp without time zone',
  Date: 'date',
  Integer: 'integer',
  SmallInt: 'smallint',
  BigInt: 'bigint',
  Decimal: 'numeric',
  DoublePrecision: 'double precision',
  Real: 'real',
  JsonB: 'jsonb',
  Json: 'json',
  Boolean: 'boolean',
  ByteA: 'bytea',
};

export interface ColumnShape {
  table: string;
  column: string;
  type: string;
  nullable: boolean;
}

/** Tables and columns the Prisma schema describes, as PostgreSQL would report them. */
export function expectedColumns(prismaSchema: string): ColumnShape[] {
  const wasm = require('@prisma/prisma-schema-wasm') as { get_dmmf(p: string): string };
  const dmmf = JSON.parse(wasm.get_dmmf(JSON.stringify({ prismaSchema })));
  const enums = new Set<string>(dmmf.datamodel.enums.map((e: { name: string }) => e.name));
  const out: ColumnShape[] = [];
  for (const m of dmmf.datamodel.models as DmmfModel[]) {
    for (const f of m.fields) {
      if (f.kind === 'object') continue;
      let type: string;
      if (f.kind === 'enum' || enums.has(f.type)) type = 'USER-DEFINED';
      else if (f.nativeType) type = NATIVE_TO_PG[f.nativeType[0]] ?? f.nativeType[0].toLowerCase();
      else type = SCALAR_TO_PG[f.type] ?? f.type;
      if (f.isList) type = 'ARRAY';
      out.push({
        table: m.dbName ?? m.name,
        column: f.dbName ?? f.name,
        type,
        nullable: !f.isRequired && !f.isList,
      });
    }
  }
  return out.sort((a, b) => `${a.table}.${a.column}`.localeCompare(`${b.table}.${b.column}`));
}

/** Tables and columns that exist in the migrated schema (Prisma's bookkeeping table left out). */
export async function actualColumns(pool: pg.Pool, schema: string): Promise<ColumnShape[]> {
  const { rows } = await pool.query<{
    table_name: string;
    column_name: string;
    data_type: string;
    is_nullable: string;
  }>(
    `SELECT table_name, column_name, data_type, is_nullable FROM information_schema.columns
     WHERE table_schema = $1 AND table_name <> '_prisma_migrations'`,
    [schema],
  );
  return rows
    .map((r) => ({
      table: r.table_name,
      column: r.column_name,
      type: r.data_type,
      nullable: r.is_nullable === 'YES',
    }))
    .sort((a, b) => `${a.table}.${a.column}`.localeCompare(`${b.table}.${b.column}`));
}
