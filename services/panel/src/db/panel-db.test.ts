import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { createPool, migrate, type Pool } from '@od/db';
import { freshDatabase } from '@od/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PanelDb } from './panel-db.ts';

const DAY = 86_400_000;

/** PanelDb's prune is SQL on the pool (Prisma loads with the first user's request only). */
describe('panel db prune', () => {
  let db: Awaited<ReturnType<typeof freshDatabase>>;
  let pool: Pool;
  let panelDb: PanelDb;

  beforeAll(async () => {
    db = await freshDatabase();
    const dir = path.resolve(import.meta.dirname, '../../prisma/migrations');
    await migrate({ databaseUrl: db.url, schema: 'panel', dir });
    pool = createPool(db.url, 'panel', 2);
    panelDb = new PanelDb(pool);
  }, 60_000);
  afterAll(async () => {
    await panelDb?.close();
    await pool?.end();
    await db?.drop();
  });

  it('removes expired and idle sessions and day-old setup tokens, keeps the rest', async () => {
    const now = new Date();
    const { userId } = await panelDb.invite(
      randomUUID(),
      `${randomUUID()}@x.test`,
      'OWNER',
      'kept',
      new Date(now.getTime() + DAY),
      now,
    );
    await pool.query(
      'INSERT INTO setup_tokens (token_hash, user_id, created_at, expires_at) VALUES ($1, $2, $3, $3)',
      ['old', userId, new Date(now.getTime() - 2 * DAY)],
    );
    for (const id of ['live', 'idle', 'expired']) await panelDb.createSession(id, userId, 'csrf', now);
    await pool.query('UPDATE sessions SET last_seen_at = $1 WHERE id = $2', [
      new Date(now.getTime() - 2 * DAY),
      'idle',
    ]);
    await pool.query('UPDATE sessions SET expires_at = $1 WHERE id = $2', [now, 'expired']);

    await panelDb.prune(now, DAY);

    const sessions = await pool.query('SELECT id FROM sessions ORDER BY id');
    expect(sessions.rows.map((r) => r.id)).toEqual(['live']);
    const tokens = await pool.query('SELECT token_hash FROM setup_tokens');
    expect(tokens.rows.map((r) => r.token_hash)).toEqual(['kept']);
  });
});
