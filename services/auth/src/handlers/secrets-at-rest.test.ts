import { randomBytes } from 'node:crypto';
import { type AuthTestKit, authTestKit } from '@od/auth/test-support';
import { INTERNAL_OPS } from '@od/contracts';
import type { ServiceHandle } from '@od/runtime';
import { startStack, type TestStack } from '@od/testing';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { start as startAuth } from '../main.ts';

const HOOK = 'https://pdv.example.com/webhooks/od';
const key = () => randomBytes(32).toString('base64');
const K1 = key();
const K2 = key();

describe('webhook secrets at rest (AES-256-GCM with key id)', () => {
  let stack: TestStack;
  let kit: AuthTestKit;
  let db: pg.Client;
  let extra: ServiceHandle | undefined;

  beforeAll(async () => {
    stack = await startStack({
      services: ['catalog', 'auth'],
      env: { SECRETS_KEYS: `k1:${K1}`, RATE_LIMIT_ENABLED: 'false' },
    });
    kit = await authTestKit(stack);
    db = new pg.Client({ connectionString: stack.config.DATABASE_URL });
    await db.connect();
  });
  afterAll(async () => {
    await db?.end();
    await extra?.stop();
    await kit?.close();
    await stack?.stop();
  });

  const rows = async (clientId: string) =>
    (
      await db.query<{ secret: string; key_id: string | null }>(
        'SELECT secret, key_id FROM auth.webhook_secret WHERE client_id = $1 ORDER BY created_at',
        [clientId],
      )
    ).rows;
  const served = async (clientId: string) =>
    (await kit.rpc(INTERNAL_OPS.webhookSecrets, { clientId }, 'webhook')).body.secrets;
  const webhookCredential = async () => {
    const r = await kit.createCredential(await kit.createStore(), {
      deliveryMode: 'WEBHOOK',
      webhookUrl: HOOK,
    });
    expect(r.status).toBe(201);
    return r.json as { clientId: string; webhookSecret: string };
  };

  it('stores only ciphertext under the active key; webhook gets the secret shown at creation', async () => {
    const c = await webhookCredential();
    const [row] = await rows(c.clientId);
    expect(row.key_id).toBe('k1');
    expect(row.secret).toMatch(/^k1\.[A-Za-z0-9_-]+$/);
    expect(row.secret).not.toContain(c.webhookSecret.slice(6, 30));
    expect(await served(c.clientId)).toEqual([c.webhookSecret]);
    // rotation: both secrets encrypted, both served newest first
    const rot = await stack.admin('POST', `/admin/v1/credentials/${c.clientId}/webhook-secret`);
    const { webhookSecret } = (await rot.json()) as { webhookSecret: string };
    expect((await rows(c.clientId)).every((r) => r.key_id === 'k1' && !r.secret.includes('whsec_'))).toBe(
      true,
    );
    expect(await served(c.clientId)).toEqual([webhookSecret, c.webhookSecret]);
  });

  let od: { clientId: string; clientSecret: string };
  const clientSecretOf = (clientId: string, as: 'webhook' | 'feed' = 'webhook') =>
    kit.rpc(INTERNAL_OPS.clientSecret, { clientId }, as);

  it('an OPEN_DELIVERY client secret is kept sealed and served to the webhook sender only', async () => {
    const r = await kit.createCredential(await kit.createStore(), { apiProfile: 'OPEN_DELIVERY' });
    expect(r.status).toBe(201);
    od = r.json as typeof od;
    const row = (
      await db.query(
        'SELECT client_secret, client_secret_key_id, secret_hash FROM auth.credential WHERE client_id = $1',
        [od.clientId],
      )
    ).rows[0];
    expect(row.client_secret_key_id).toBe('k1');
    expect(row.client_secret).toMatch(/^k1\.[A-Za-z0-9_-]+$/);
    expect(row.client_secret).not.toContain(od.clientSecret.slice(4, 24));
    expect(await clientSecretOf(od.clientId)).toEqual({
      status: 200,
      body: { clientSecret: od.clientSecret },
    });
    expect((await clientSecretOf(od.clientId, 'feed')).status).toBe(403);
    // a SPEC credential keeps only the hash: nothing to serve
    const spec = await kit.credential();
    expect(
      (await db.query('SELECT client_secret FROM auth.credential WHERE client_id = $1', [spec.clientId]))
        .rows[0].client_secret,
    ).toBeNull();
    expect(await clientSecretOf(spec.clientId)).toMatchObject({
      status: 404,
      body: { error: 'no_client_secret' },
    });
    expect((await clientSecretOf('odc_000000000000000000000000')).status).toBe(404);
    // the token endpoint still checks the hash
    expect((await kit.token(od.clientId, od.clientSecret)).status).toBe(200);
  });

  it('a sealed secret moved to another credential does not open (bound to its credential)', async () => {
    const a = await webhookCredential();
    const b = await webhookCredential();
    await db.query(
      'UPDATE auth.webhook_secret SET secret = (SELECT secret FROM auth.webhook_secret WHERE client_id = $1) WHERE client_id = $2',
      [a.clientId, b.clientId],
    );
    const r = await kit.rpc(INTERNAL_OPS.webhookSecrets, { clientId: b.clientId }, 'webhook');
    expect(r.status).toBe(500);
  });

  it('rows from before encryption are sealed at start; rotate-key re-encrypts every row under the new key', async () => {
    const c = await webhookCredential();
    const legacy = `whsec_${randomBytes(32).toString('base64')}`;
    await db.query('UPDATE auth.webhook_secret SET secret = $1, key_id = NULL WHERE client_id = $2', [
      legacy,
      c.clientId,
    ]);
    expect(await served(c.clientId)).toEqual([legacy]); // readable meanwhile
    // a replica with the new key listed and active starts: it seals the plaintext row under k2
    await stack.services.auth?.stop();
    delete stack.services.auth;
    extra = await startAuth({ ...stack.config, SECRETS_KEYS: `k1:${K1},k2:${K2}`, SECRETS_ACTIVE_KEY: 'k2' });
    const [sealed] = await rows(c.clientId);
    expect(sealed.key_id).toBe('k2');
    expect(sealed.secret).not.toContain('whsec_');
    expect(await served(c.clientId)).toEqual([legacy]);

    const before = (
      await db.query('SELECT count(*)::int AS n FROM auth.webhook_secret WHERE key_id = $1', ['k1'])
    ).rows[0].n;
    expect(before).toBeGreaterThan(0);
    const clientSecretsUnderK1 = (
      await db.query('SELECT count(*)::int AS n FROM auth.credential WHERE client_secret_key_id = $1', ['k1'])
    ).rows[0].n;
    expect(clientSecretsUnderK1).toBe(1);
    const r = await stack.admin('POST', '/admin/v1/secrets/rotate-key');
    expect(r.status).toBe(200);
    // the row altered in the test above does not open: skipped and reported, the others rotated
    // (webhook secrets and the OPEN_DELIVERY client secret)
    expect(await r.json()).toEqual({
      activeKeyId: 'k2',
      resealed: before - 1 + clientSecretsUnderK1,
      remaining: 1,
      unreadable: [expect.stringMatching(/^[0-9a-f-]{36}$/)],
      catalog: { resealed: 0, unreadable: [] }, // catalog's api keys: tests/secrets-rotate-key.test.ts
    });
    const keys = await db.query(
      'SELECT key_id, count(*)::int AS n FROM auth.webhook_secret GROUP BY 1 ORDER BY 1',
    );
    expect(keys.rows).toEqual([
      { key_id: 'k1', n: 1 },
      { key_id: 'k2', n: expect.any(Number) },
    ]);
    // still the same secrets, now readable without k1
    await extra.stop();
    extra = await startAuth({ ...stack.config, SECRETS_KEYS: `k2:${K2}` });
    expect(await served(c.clientId)).toEqual([legacy]);
    expect((await clientSecretOf(od.clientId)).body).toEqual({ clientSecret: od.clientSecret });
  }, 90_000); // restarts auth twice: generous on a shared machine
});
