import { randomBytes } from 'node:crypto';
import { createSecretBox, parseKeyring } from '@od/crypto';
import { createMerchant, startStack, type TestStack } from '@od/testing';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const key = () => randomBytes(32).toString('base64');
const K1 = key();
const K2 = key();
const K9 = key();
const context = (merchantId: string) => `od_api_key:${merchantId}`;

/**
 * `odctl secrets rotate-key` covers every secret at rest, not only auth's: catalog's point-of-sale
 * api keys (Open Delivery Merchant module) written under an older key are sealed again under the
 * active one, and one that no longer opens is reported by store.
 */
describe('rotate-key re-encrypts the point-of-sale api keys too', () => {
  let stack: TestStack;
  let db: pg.Client;
  beforeAll(async () => {
    stack = await startStack({
      services: ['catalog', 'auth'],
      env: { SECRETS_KEYS: `k1:${K1},k2:${K2}`, SECRETS_ACTIVE_KEY: 'k2' },
    });
    db = new pg.Client({ connectionString: stack.config.DATABASE_URL });
    await db.connect();
  });
  afterAll(async () => {
    await db?.end();
    await stack?.stop();
  });

  const source = async (keyId: string, secret: string) => {
    const { merchantId } = await createMerchant(stack);
    const sealed = createSecretBox(parseKeyring(`${keyId}:${secret}`, keyId)).seal(
      'pos-key',
      context(merchantId),
    );
    await db.query(
      `INSERT INTO catalog.od_merchant_source (merchant_id, od_merchant_id, get_merchant_url, api_key, api_key_key_id)
       VALUES ($1::uuid, $1::text, 'https://pdv.example.com/v1/merchant', $2, $3)`,
      [merchantId, sealed, keyId],
    );
    return merchantId;
  };

  it('seals k1 rows under k2, reports a row whose key left SECRETS_KEYS, and keeps auth answer', async () => {
    const old = await source('k1', K1);
    const lost = await source('k9', K9);
    const r = await stack.admin('POST', '/admin/v1/secrets/rotate-key');
    expect(r.status).toBe(200);
    const body = (await r.json()) as Record<string, unknown>;
    expect(body).toMatchObject({ activeKeyId: 'k2', catalog: { resealed: 1, unreadable: [lost] } });
    const row = (
      await db.query(
        'SELECT api_key, api_key_key_id FROM catalog.od_merchant_source WHERE merchant_id = $1',
        [old],
      )
    ).rows[0];
    expect(row.api_key_key_id).toBe('k2');
    expect(createSecretBox(parseKeyring(`k2:${K2}`, 'k2')).open(row.api_key, context(old))).toBe('pos-key');
  });
});
