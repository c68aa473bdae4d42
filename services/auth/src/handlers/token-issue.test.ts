import { type AuthTestKit, authTestKit } from '@od/auth/test-support';
import { startStack, type TestStack } from '@od/testing';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashSecret } from '../domain/secrets.ts';
import { SCRYPT_WORK } from './token-issue.ts';

describe('token issue: HMAC-verified secrets, legacy rehash, bounded work', () => {
  let stack: TestStack;
  let kit: AuthTestKit;
  let db: pg.Client;

  beforeAll(async () => {
    stack = await startStack({ services: ['catalog', 'auth'], env: { RATE_LIMIT_ENABLED: 'false' } });
    kit = await authTestKit(stack);
    db = new pg.Client({ connectionString: stack.config.DATABASE_URL });
    await db.connect();
  });
  afterAll(async () => {
    await db?.end();
    await kit?.close();
    await stack?.stop();
  });

  const storedHash = async (clientId: string) =>
    (await db.query('SELECT secret_hash FROM auth.credential WHERE client_id = $1', [clientId])).rows[0]
      .secret_hash as string;
  const useLegacyHash = async (clientId: string, secret: string) =>
    db.query('UPDATE auth.credential SET secret_hash = $1 WHERE client_id = $2', [
      await hashSecret(secret),
      clientId,
    ]);

  it('stores HMAC-SHA256 under the server key, never the secret', async () => {
    const c = await kit.credential();
    const h = await storedHash(c.clientId);
    expect(h).toMatch(/^hmac-sha256\$[A-Za-z0-9_-]{43}$/);
    expect(h).not.toContain(c.clientSecret);
    expect((await kit.token(c.clientId, c.clientSecret)).status).toBe(200);
    expect((await kit.token(c.clientId, `${c.clientSecret}x`)).status).toBe(401);
  });

  it('a legacy scrypt hash verifies once, then is replaced by the HMAC form', async () => {
    const c = await kit.credential();
    await useLegacyHash(c.clientId, c.clientSecret);
    expect((await kit.token(c.clientId, 'wrong-secret')).status).toBe(401);
    expect(await storedHash(c.clientId)).toMatch(/^scrypt\$/); // only a correct secret rehashes
    expect((await kit.token(c.clientId, c.clientSecret)).status).toBe(200);
    expect(await storedHash(c.clientId)).toMatch(/^hmac-sha256\$/);
    expect((await kit.token(c.clientId, c.clientSecret)).status).toBe(200);
  });

  it('a flood of scrypt work is answered 503 at once; other credentials keep renewing', async () => {
    const legacy = await kit.credential();
    await useLegacyHash(legacy.clientId, legacy.clientSecret);
    const other = await kit.credential();
    const t0 = performance.now();
    const timed = async (call: () => Promise<Response>) => {
      const r = await call();
      await r.clone().arrayBuffer();
      return { r, end: performance.now() - t0 };
    };
    const flood = Array.from({ length: 60 }, () =>
      timed(() => kit.token(legacy.clientId, 'wrong-secret-of-a-flood')),
    );
    const renewal = await timed(() => kit.token(other.clientId, other.clientSecret));
    const answers = await Promise.all(flood);
    expect(renewal.r.status).toBe(200);
    const busy = answers.filter((a) => a.r.status === 503);
    const checked = answers.filter((a) => a.r.status === 401);
    // at most active + queued scrypt checks wait; beyond that, refused without waiting (how many
    // depends on how fast requests arrive: slots free up meanwhile)
    expect(SCRYPT_WORK.active + SCRYPT_WORK.queued).toBeLessThan(60);
    expect(busy.length).toBeGreaterThan(0);
    expect(busy.length + checked.length).toBe(60);
    expect(busy[0].r.headers.get('retry-after')).toBe('1');
    expect(await busy[0].r.json()).toEqual({
      error: 'temporarily_unavailable',
      error_description: expect.any(String),
    });
    // timing relative to the flood itself (the machine is shared): refusals and the other
    // credential's renewal came back before the queued scrypt checks were done
    const lastChecked = Math.max(...checked.map((a) => a.end));
    const sorted = busy.map((a) => a.end).sort((a, b) => a - b);
    expect(sorted[Math.floor(sorted.length / 2)]).toBeLessThan(lastChecked);
    expect(renewal.end).toBeLessThan(lastChecked);
  });
});
