import { CLIENT_ID_PATTERN } from '@od/contracts';
import { describe, expect, it } from 'vitest';
import {
  generateClientId,
  generateClientSecret,
  generateWebhookSecret,
  hashClientSecret,
  hashSecret,
  isLegacyHash,
  verifyClientSecret,
  verifySecret,
} from './secrets.ts';

const KEY = 'k'.repeat(40);

describe('client secret HMAC', () => {
  it('is keyed, deterministic and never contains the secret', () => {
    const secret = generateClientSecret();
    const h = hashClientSecret(secret, KEY);
    expect(h).toMatch(/^hmac-sha256\$[A-Za-z0-9_-]{43}$/);
    expect(h).toBe(hashClientSecret(secret, KEY));
    expect(h).not.toBe(hashClientSecret(secret, 'x'.repeat(40)));
    expect(h.includes(secret)).toBe(false);
    expect(isLegacyHash(h)).toBe(false);
  });

  it('verifies the right secret under the right key only; unknown clients never verify', async () => {
    const secret = generateClientSecret();
    const h = hashClientSecret(secret, KEY);
    expect(await verifyClientSecret(secret, h, KEY)).toBe(true);
    expect(await verifyClientSecret(`${secret}x`, h, KEY)).toBe(false);
    expect(await verifyClientSecret(secret, h, 'x'.repeat(40))).toBe(false);
    expect(await verifyClientSecret(secret, undefined, KEY)).toBe(false);
  });

  it('legacy scrypt hashes go through the given limiter', async () => {
    const secret = generateClientSecret();
    const stored = await hashSecret(secret);
    expect(isLegacyHash(stored)).toBe(true);
    let used = 0;
    const ok = await verifyClientSecret(secret, stored, KEY, (run) => {
      used++;
      return run();
    });
    expect(ok).toBe(true);
    expect(used).toBe(1);
  });
});

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
