import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { createPool, migrate } from '@od/db';
import { freshDatabase } from '@od/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pruneOld } from './deliveries.ts';

describe('webhook retention', () => {
  let db: Awaited<ReturnType<typeof freshDatabase>>;
  let pool: ReturnType<typeof createPool>;
  beforeAll(async () => {
    db = await freshDatabase();
    await migrate({
      databaseUrl: db.url,
      schema: 'webhook',
      dir: path.resolve(import.meta.dirname, '../../prisma/migrations'),
    });
    pool = createPool(db.url, 'webhook', 2);
  });
  afterAll(async () => {
    await pool?.end();
    await db?.drop();
  });

  it('deletes old attempts, finished deliveries and events; keeps pending and recent ones', async () => {
    const ins = async (ageDays: number, status: string) => {
      const eventId = randomUUID();
      const at = `now() - interval '${ageDays} days'`;
      await pool.query(
        `INSERT INTO event (event_id, merchant_id, channel, event_type, body, created_at, received_at)
         VALUES ($1, $2, 'APP', 'CREATED', '{}', ${at}, ${at})`,
        [eventId, randomUUID()],
      );
      const d = await pool.query<{ id: string }>(
        `INSERT INTO delivery (event_id, client_id, merchant_id, event_type, status, created_at, next_attempt_at)
         VALUES ($1, 'odc_x', $2, 'CREATED', $3, ${at}, ${status === 'PENDING' ? 'now()' : 'NULL'}) RETURNING id`,
        [eventId, randomUUID(), status],
      );
      await pool.query(
        `INSERT INTO attempt (delivery_id, event_id, client_id, event_type, round, attempt, url, started_at,
                              duration_ms, status_code, error, success)
         VALUES ($1, $2, 'odc_x', 'CREATED', 1, 1, 'https://x', ${at}, 5, 500, 'HTTP 500', false)`,
        [d.rows[0].id, eventId],
      );
      return eventId;
    };
    const old = await ins(40, 'WEBHOOK_FAILED');
    const oldPending = await ins(40, 'PENDING');
    const recent = await ins(2, 'DELIVERED');
    expect(await pruneOld(pool, 30)).toBe(2 + 1 + 1); // 2 attempts, 1 delivery, 1 event
    const events = (await pool.query<{ event_id: string }>('SELECT event_id FROM event')).rows.map(
      (r) => r.event_id,
    );
    expect(events.sort()).toEqual([oldPending, recent].sort());
    expect(events).not.toContain(old);
    const ds = (await pool.query<{ status: string }>('SELECT status FROM delivery ORDER BY status')).rows;
    expect(ds.map((r) => r.status)).toEqual(['DELIVERED', 'PENDING']);
    expect(await pruneOld(pool, 30)).toBe(0);
  });
});
