import { CLIENT_ID_PATTERN } from '@od/contracts';
import { describe, expect, it } from 'vitest';
import {
  generateClientId,
  generateClientSecret,
  generateWebhookSecret,
  hashSecret,
  verifySecret,
} from './secrets.ts';

describe('credential secrets', () => {
  it('client ids have the fixed prefix and 24 lowercase hex characters', () => {
    for (let i = 0; i < 50; i++) expect(generateClientId()).toMatch(CLIENT_ID_PATTERN);
  });

  it('client secrets are long random base64url strings, never repeated', () => {
    const seen = new Set(Array.from({ length: 100 }, generateClientSecret));
    expect(seen.size).toBe(100);
    for (const s of seen) expect(s).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('webhook secrets follow Standard Webhooks: whsec_ + base64 of 32 bytes', () => {
    const s = generateWebhookSecret();
    expect(s.startsWith('whsec_')).toBe(true);
    expect(Buffer.from(s.slice(6), 'base64')).toHaveLength(32);
  });

  it('the stored hash never equals nor contains the secret, and is salted per secret', async () => {
    const secret = generateClientSecret();
    const a = await hashSecret(secret);
    const b = await hashSecret(secret);
    expect(a).not.toBe(secret);
    expect(a.includes(secret)).toBe(false);
    expect(a).not.toBe(b);
    expect(a).toMatch(/^scrypt\$16384\$8\$1\$[A-Za-z0-9_-]+\$[A-Za-z0-9_-]+$/);
  });

  it('verifies the right secret only', async () => {
    const secret = generateClientSecret();
    const stored = await hashSecret(secret);
    expect(await verifySecret(secret, stored)).toBe(true);
    expect(await verifySecret(`${secret}x`, stored)).toBe(false);
    expect(await verifySecret('', stored)).toBe(false);
    expect(await verifySecret(secret.slice(1), stored)).toBe(false);
  });

  it('an unknown client (no stored hash) or a corrupt hash never verifies, at the same cost', async () => {
    const secret = generateClientSecret();
    expect(await verifySecret(secret, undefined)).toBe(false);
    expect(await verifySecret(secret, 'garbage')).toBe(false);
    expect(await verifySecret(secret, 'scrypt$99999999$8$1$aaaaaaaaaaa$bbbbbbbbbbbbbbbbbbbbbbbb')).toBe(
      false,
    );
    const stored = await hashSecret(secret);
    const time = async (f: () => Promise<unknown>) => {
      const t = performance.now();
      for (let i = 0; i < 5; i++) await f();
      return performance.now() - t;
    };
    await verifySecret(secret, undefined);
    const known = await time(() => verifySecret('wrong', stored));
    const unknown = await time(() => verifySecret('wrong', undefined));
    // same work: within a generous factor on a shared machine
    expect(unknown).toBeGreaterThan(known / 4);
    expect(unknown).toBeLessThan(known * 4);
  });
});
