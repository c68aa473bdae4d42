import type { SecretBox } from '@od/crypto';
import type { Pool } from '@od/db';
import { clientSecretContext, webhookSecretContext } from './credentials.ts';

const BATCH = 200;

/** A column of sealed values: where it is, its row id and the context each value is bound to. */
interface SealedColumn {
  table: string;
  id: string;
  value: string;
  keyId: string;
  context: (clientId: string) => string;
}

/** Webhook secrets (`whsec_`, every credential with a URL) and OPEN_DELIVERY client secrets. */
const SEALED_COLUMNS: SealedColumn[] = [
  { table: 'webhook_secret', id: 'id', value: 'secret', keyId: 'key_id', context: webhookSecretContext },
  {
    table: 'credential',
    id: 'client_id',
    value: 'client_secret',
    keyId: 'client_secret_key_id',
    context: clientSecretContext,
  },
];

/**
 * Re-encrypts secrets at rest under the active key, `BATCH` rows at a time. `which`:
 * - `plaintext`: only rows written before encryption existed (key_id NULL); run at every start,
 *   so the migration that added key_id is completed by the first auth replica that starts;
 * - `all`: every row not under the active key (`odctl secrets rotate-key`).
 * Each row is updated only if it is still what was read (another replica may be doing the same).
 * A row that does not open (its key is not listed, or it was altered) is skipped and its id reported.
 * Plain SQL on the pool, not Prisma: run at every start, it would load Prisma's query compiler
 * (~10 MB resident) into a replica that may never need it.
 */
export async function resealSecrets(
  pool: Pool,
  box: SecretBox,
  which: 'plaintext' | 'all',
): Promise<{ resealed: number; remaining: number; unreadable: string[] }> {
  const out = { resealed: 0, remaining: 0, unreadable: [] as string[] };
  for (const col of SEALED_COLUMNS) {
    const r = await resealColumn(pool, box, which, col);
    out.resealed += r.resealed;
    out.remaining += r.remaining;
    out.unreadable.push(...r.unreadable);
  }
  return out;
}

async function resealColumn(
  pool: Pool,
  box: SecretBox,
  which: 'plaintext' | 'all',
  c: SealedColumn,
): Promise<{ resealed: number; remaining: number; unreadable: string[] }> {
  // identifiers come from SEALED_COLUMNS above, never from input. $1 = the active key for `all`,
  // NULL for `plaintext` (`<> NULL` is never true: only rows without a key id match)
  const filter = `"${c.value}" IS NOT NULL AND ("${c.keyId}" IS NULL OR "${c.keyId}" <> $1::text)`;
  const active = which === 'all' ? box.activeId : null;
  let resealed = 0;
  const unreadable: string[] = [];
  let afterId = '';
  for (;;) {
    const { rows } = await pool.query<{
      id: string;
      client_id: string;
      value: string;
      key_id: string | null;
    }>(
      `SELECT "${c.id}"::text AS id, client_id, "${c.value}" AS value, "${c.keyId}" AS key_id
       FROM "${c.table}" WHERE ${filter} AND "${c.id}"::text > $2::text
       ORDER BY "${c.id}"::text LIMIT ${BATCH}`,
      [active, afterId],
    );
    if (rows.length === 0) break;
    afterId = rows[rows.length - 1].id;
    for (const r of rows) {
      const context = c.context(r.client_id);
      let plain: string;
      try {
        plain = r.key_id === null ? r.value : box.open(r.value, context);
      } catch {
        unreadable.push(r.id); // key not listed, or the row was altered: left as is, reported
        continue;
      }
      const done = await pool.query(
        `UPDATE "${c.table}" SET "${c.value}" = $1, "${c.keyId}" = $2
         WHERE "${c.id}"::text = $3 AND "${c.value}" = $4 AND "${c.keyId}" IS NOT DISTINCT FROM $5`,
        [box.seal(plain, context), box.activeId, r.id, r.value, r.key_id],
      );
      resealed += done.rowCount ?? 0;
    }
  }
  const {
    rows: [{ n }],
  } = await pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM "${c.table}" WHERE ${filter}`, [
    active,
  ]);
  return { resealed, remaining: n, unreadable };
}
