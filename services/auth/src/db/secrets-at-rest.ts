import type { SecretBox } from '@od/crypto';
import type { Db } from './client.ts';
import { webhookSecretContext } from './credentials.ts';

const BATCH = 200;

/**
 * Re-encrypts webhook secrets under the active key, `BATCH` rows at a time. `which`:
 * - `plaintext`: only rows written before encryption existed (key_id NULL); run at every start,
 *   so the migration that added key_id is completed by the first auth replica that starts;
 * - `all`: every row not under the active key (`odctl secrets rotate-key`).
 * Each row is updated only if it is still what was read (another replica may be doing the same).
 * A row that does not open (its key is not listed, or it was altered) is skipped and its id reported.
 */
export async function resealWebhookSecrets(
  db: Db,
  box: SecretBox,
  which: 'plaintext' | 'all',
): Promise<{ resealed: number; remaining: number; unreadable: string[] }> {
  const filter =
    which === 'plaintext' ? { keyId: null } : { OR: [{ keyId: null }, { keyId: { not: box.activeId } }] };
  let resealed = 0;
  const unreadable: string[] = [];
  let afterId: string | undefined;
  for (;;) {
    const rows = await db.webhookSecret.findMany({
      where: { ...filter, ...(afterId ? { id: { gt: afterId } } : {}) },
      orderBy: { id: 'asc' },
      take: BATCH,
      select: { id: true, clientId: true, secret: true, keyId: true },
    });
    if (rows.length === 0) break;
    afterId = rows[rows.length - 1].id;
    for (const r of rows) {
      const context = webhookSecretContext(r.clientId);
      let plain: string;
      try {
        plain = r.keyId === null ? r.secret : box.open(r.secret, context);
      } catch {
        unreadable.push(r.id); // key not listed, or the row was altered: left as is, reported
        continue;
      }
      const done = await db.webhookSecret.updateMany({
        where: { id: r.id, keyId: r.keyId, secret: r.secret },
        data: { secret: box.seal(plain, context), keyId: box.activeId },
      });
      resealed += done.count;
    }
  }
  const remaining = await db.webhookSecret.count({ where: filter });
  return { resealed, remaining, unreadable };
}
