import { randomUUID } from 'node:crypto';
import { openCredentialsKv } from '@od/bus';
import { type CredentialRecord, names } from '@od/contracts';
import { createPool, type Pool } from '@od/db';
import {
  ack,
  bearerOf,
  eventually,
  issueTestToken,
  type Publisher,
  poll,
  publisher,
  sleep,
  startStack,
  type TestStack,
} from '@od/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runRetention } from '../services/feed/src/db/retention.ts';

describe('event feed: credential lifecycle, admin view, retention', () => {
  let stack: TestStack;
  let pub: Publisher;
  let pool: Pool;
  beforeAll(async () => {
    stack = await startStack({ services: ['feed'] });
    pub = await publisher(stack);
    pool = createPool(stack.config.DATABASE_URL, 'feed', 2);
  });
  afterAll(async () => {
    await pool?.end();
    await pub?.close();
    await stack?.stop();
  });

  /** A new version of a credential record in KV, as auth publishes on pause/resume/revoke. */
  async function putRecord(
    rec: CredentialRecord,
    change: Partial<CredentialRecord>,
  ): Promise<CredentialRecord> {
    const next = { ...rec, ...change, updatedAt: new Date().toISOString() };
    const kv = await openCredentialsKv(pub.nc, names(stack.config.NATS_PREFIX));
    const rev = await kv.put(rec.clientId, JSON.stringify(next));
    await stack.gateway.ctx.credentials.waitForRevision(rev);
    return next;
  }
  const entries = async (clientId: string) =>
    (await pool.query('SELECT count(*)::int AS n FROM feed_entries WHERE credential_id = $1', [clientId]))
      .rows[0].n as number;
  const storedStatus = async (clientId: string) =>
    (await pool.query('SELECT status FROM credentials WHERE client_id = $1', [clientId])).rows[0]?.status;

  it('keeps accumulating events while a credential is paused and serves them after resume', async () => {
    const c = await issueTestToken(stack, { scopes: ['orders:read'] });
    await sleep(5);
    const e1 = await pub.publish(c.merchantId);
    await eventually(
      () => poll(stack, c.token),
      (v) => v.length === 1,
    );
    const paused = await putRecord(c.record, { status: 'PAUSED' });
    await eventually(
      () => storedStatus(c.clientId),
      (s) => s === 'PAUSED',
    );
    const blocked = await stack.api('/v1/events:polling', bearerOf(c.token));
    expect(blocked.status).toBe(401);
    expect((await blocked.json()).error).toBe('invalid_token');
    const e2 = await pub.publish(c.merchantId);
    const e3 = await pub.publish(c.merchantId);
    await eventually(
      () => entries(c.clientId),
      (n) => n === 3,
    );
    await putRecord(paused, { status: 'ACTIVE' });
    expect(
      await eventually(
        () => poll(stack, c.token),
        (v) => v.length === 3,
      ),
    ).toEqual([e1, e2, e3]);
  });

  it('stops feeding a revoked credential and deletes its entries', async () => {
    const merchantId = randomUUID();
    const c = await issueTestToken(stack, { merchantId, scopes: ['orders:read'] });
    const keep = await issueTestToken(stack, { merchantId, scopes: ['orders:read'] });
    await sleep(5);
    await pub.publish(merchantId);
    await pub.publish(merchantId);
    await eventually(
      () => entries(c.clientId),
      (n) => n === 2,
    );
    await ack(
      stack,
      c.token,
      (await poll(stack, c.token)).slice(0, 1).map((e) => e.eventId),
    );
    await putRecord(c.record, { status: 'REVOKED' });
    expect(
      await eventually(
        () => entries(c.clientId),
        (n) => n === 0,
      ),
    ).toBe(0);
    await pub.publish(merchantId);
    await eventually(
      () => entries(keep.clientId),
      (n) => n === 3,
    );
    expect(await entries(c.clientId)).toBe(0);
    // revocation is permanent: a later ACTIVE record changes nothing
    const kv = await openCredentialsKv(pub.nc, names(stack.config.NATS_PREFIX));
    await kv.put(
      c.clientId,
      JSON.stringify({ ...c.record, status: 'ACTIVE', updatedAt: new Date().toISOString() }),
    );
    await sleep(300);
    expect(await storedStatus(c.clientId)).toBe('REVOKED');
    const res = await stack.admin('GET', `/admin/v1/credentials/${c.clientId}/events`);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      clientId: c.clientId,
      status: 'REVOKED',
      items: [],
      pending: 0,
    });
  });

  it('shows the feed with ack state on the admin API, newest first, paginated', async () => {
    const c = await issueTestToken(stack, { scopes: ['orders:read'] });
    await sleep(5);
    const sent = [];
    for (let i = 0; i < 5; i++) sent.push(await pub.publish(c.merchantId));
    await eventually(
      () => poll(stack, c.token),
      (v) => v.length === 5,
    );
    await ack(stack, c.token, [sent[0].eventId, sent[3].eventId]);
    const p1 = await stack.admin('GET', `/admin/v1/credentials/${c.clientId}/events?limit=3`);
    expect(p1.status).toBe(200);
    const b1 = await p1.json();
    expect(b1.pending).toBe(3);
    expect(b1.items.map((i: { eventId: string }) => i.eventId)).toEqual(
      [sent[4], sent[3], sent[2]].map((e) => e.eventId),
    );
    expect(b1.items.map((i: { acknowledged: boolean }) => i.acknowledged)).toEqual([false, true, false]);
    expect(b1.items[1].acknowledgedAt).toEqual(expect.any(String));
    expect(b1.items[0].envelope).toEqual(sent[4]);
    expect(b1.nextBefore).toEqual(expect.any(Number));
    const p2 = await (
      await stack.admin('GET', `/admin/v1/credentials/${c.clientId}/events?limit=3&before=${b1.nextBefore}`)
    ).json();
    expect(p2.items.map((i: { eventId: string }) => i.eventId)).toEqual(
      [sent[1], sent[0]].map((e) => e.eventId),
    );
    expect(p2.nextBefore).toBeNull();
    const pending = await (
      await stack.admin('GET', `/admin/v1/credentials/${c.clientId}/events?state=pending`)
    ).json();
    expect(pending.items).toHaveLength(3);
    const acked = await (
      await stack.admin('GET', `/admin/v1/credentials/${c.clientId}/events?state=acknowledged`)
    ).json();
    expect(acked.items.map((i: { eventId: string }) => i.eventId)).toEqual([
      sent[3].eventId,
      sent[0].eventId,
    ]);
    expect((await stack.admin('GET', `/admin/v1/credentials/odc_${'0'.repeat(24)}/events`)).status).toBe(404);
    expect((await stack.admin('GET', `/admin/v1/credentials/${c.clientId}/events?limit=0`)).status).toBe(400);
    expect((await stack.admin('GET', `/admin/v1/credentials/${c.clientId}/events?state=nope`)).status).toBe(
      400,
    );
  });

  it('shares the durable consumer between replicas: every event stored once, nothing missing', async () => {
    const replica = await stack.startService('feed');
    try {
      const c = await issueTestToken(stack, { scopes: ['orders:read'] });
      await sleep(5);
      const sent = new Set<string>();
      for (let i = 0; i < 300; i++) sent.add((await pub.publish(c.merchantId)).eventId);
      await eventually(
        () => entries(c.clientId),
        (n) => n === 300,
      );
      const seen: string[] = [];
      for (;;) {
        const page = await poll(stack, c.token, '?limit=200');
        if (page.length === 0) break;
        seen.push(...page.map((e) => e.eventId));
        await ack(
          stack,
          c.token,
          page.map((e) => e.eventId),
        );
      }
      expect(seen).toHaveLength(300);
      expect(new Set(seen)).toEqual(sent);
    } finally {
      await replica.stop();
    }
  });

  it('deletes acknowledged entries and events after 30 days, keeps unacknowledged ones forever', async () => {
    const merchantId = randomUUID();
    const cred = `odc_${randomUUID().replaceAll('-', '').slice(0, 24)}`;
    // 3 old events: acked 31 days ago, acked 29 days ago, never acked (60 days old)
    const ids = [randomUUID(), randomUUID(), randomUUID()];
    for (const id of ids)
      await pool.query(
        `INSERT INTO events (event_id, merchant_id, channel, event_type, order_id, created_at, envelope)
         VALUES ($1, $2, 'APP', 'CREATED', $3, now() - interval '60 days', '{}')`,
        [id, merchantId, randomUUID()],
      );
    const ackedAt = ["now() - interval '31 days'", "now() - interval '29 days'", 'NULL'];
    for (let i = 0; i < 3; i++)
      await pool.query(
        `INSERT INTO feed_entries (credential_id, event_id, event_created_at, acked_at)
         VALUES ($1, $2, now() - interval '60 days', ${ackedAt[i]})`,
        [cred, ids[i]],
      );
    // two replicas at once: the try-lock lets one work, the other skips; nothing breaks
    const [r1, r2] = await Promise.all([
      runRetention(pool, { days: 30, batch: 1 }),
      runRetention(pool, { days: 30, batch: 1 }),
    ]);
    expect(r1.entries + r2.entries).toBeGreaterThanOrEqual(1);
    await runRetention(pool, { days: 30 });
    const left = await pool.query('SELECT event_id FROM feed_entries WHERE credential_id = $1 ORDER BY seq', [
      cred,
    ]);
    expect(left.rows.map((r) => r.event_id)).toEqual([ids[1], ids[2]]);
    const ev = await pool.query('SELECT event_id FROM events WHERE event_id = ANY($1::uuid[])', [ids]);
    expect(ev.rows.map((r) => r.event_id).sort()).toEqual([ids[1], ids[2]].sort());
  });

  /** An event of `days` ago, with one entry per [credential, acknowledged days ago or null]. */
  async function oldEvent(merchantId: string, days: number, feeds: [string, number | null][] = []) {
    const id = randomUUID();
    await pool.query(
      `INSERT INTO events (event_id, merchant_id, channel, event_type, order_id, created_at, envelope)
       VALUES ($1, $2, 'APP', 'CREATED', $3, now() - make_interval(days => $4), '{}')`,
      [id, merchantId, randomUUID(), days],
    );
    for (const [cred, ackedDaysAgo] of feeds)
      await pool.query(
        `INSERT INTO feed_entries (credential_id, event_id, event_created_at, acked_at)
         VALUES ($1, $2, now() - make_interval(days => $3),
           CASE WHEN $4::int IS NULL THEN NULL ELSE now() - make_interval(days => $4::int) END)`,
        [cred, id, days, ackedDaysAgo],
      );
    return id;
  }
  const existing = async (ids: string[]) =>
    (await pool.query('SELECT event_id FROM events WHERE event_id = ANY($1::uuid[])', [ids])).rows
      .map((r) => r.event_id as string)
      .sort();
  const cursor = async () =>
    (await pool.query(`SELECT event_id FROM retention_cursor WHERE name = 'events'`)).rows[0].event_id;

  it('sweeps old events without entries once, from its cursor; an event it passed goes with its last entry', async () => {
    const m = randomUUID();
    const a = `odc_${randomUUID().replaceAll('-', '').slice(0, 24)}`;
    const b = `odc_${randomUUID().replaceAll('-', '').slice(0, 24)}`;
    const never = await oldEvent(m, 50); // a store without credentials: no entry ever
    const kept = await oldEvent(m, 49, [[a, null]]); // pending: kept forever
    const later = await oldEvent(m, 48, [
      [a, 40],
      [b, 1],
    ]); // one entry acknowledged yesterday: kept 29 more days
    const young = await oldEvent(m, 10); // within 30 days
    // batches of 1: the purge and the sweep go on from where the previous batch stopped
    await runRetention(pool, { days: 30, batch: 1 });
    expect(await existing([never, kept, later, young])).toEqual([kept, later, young].sort());
    expect(await entries(a)).toBe(1); // the pending one; the one acknowledged 40 days ago is gone
    // the sweep passed every event older than 30 days (the newest of them is `later`)
    expect(await cursor()).toBe(later);
    // 30 days after b's acknowledgment its entry goes, and the event with it (found by id: the
    // sweep does not walk past it again)
    await pool.query(
      `UPDATE feed_entries SET acked_at = now() - interval '31 days' WHERE credential_id = $1`,
      [b],
    );
    await runRetention(pool, { days: 30 });
    expect(await existing([kept, later, young])).toEqual([kept, young].sort());
    expect(await cursor()).toBe(later);
  });

  it('a revocation deletes the old events the sweep passed that it leaves without entries', async () => {
    const merchantId = randomUUID();
    const c = await issueTestToken(stack, { merchantId, scopes: ['orders:read'] });
    const other = `odc_${randomUUID().replaceAll('-', '').slice(0, 24)}`;
    await eventually(
      () => storedStatus(c.clientId),
      (s) => s === 'ACTIVE',
    );
    const alone = await oldEvent(merchantId, 45, [[c.clientId, null]]);
    const shared = await oldEvent(merchantId, 45, [
      [c.clientId, null],
      [other, null],
    ]);
    await runRetention(pool, { days: 30 });
    expect(await existing([alone, shared])).toEqual([alone, shared].sort()); // pending: kept
    await putRecord(c.record, { status: 'REVOKED' });
    await eventually(
      () => entries(c.clientId),
      (n) => n === 0,
    );
    expect(await existing([alone, shared])).toEqual([shared]);
  });
});
