import { randomBytes, type ScryptOptions, scrypt as scryptCb, timingSafeEqual } from 'node:crypto';
import { CLIENT_ID_PREFIX, WEBHOOK_SECRET_PREFIX } from '@od/contracts';
import { hmacSha256, safeEqual } from '@od/crypto';

/**
 * Secrets of a credential. The client secret is shown once and stored only as
 * `hmac-sha256$<HMAC-SHA256(CLIENT_SECRET_KEY, secret) base64url>`: the secret is 32 random bytes, so
 * a slow hash adds nothing against guessing, and a keyed hash is useless without the server-side key
 * (a stolen table alone cannot be checked offline). Comparisons are constant time. Hashes written
 * before (scrypt, parameters inside the stored string) still verify and are replaced by the HMAC
 * form at the next successful token request.
 */

const HMAC_PREFIX = 'hmac-sha256$';

export const hashClientSecret = (secret: string, key: string): string =>
  HMAC_PREFIX + hmacSha256(key, secret);

export const isLegacyHash = (stored: string): boolean => !stored.startsWith(HMAC_PREFIX);

/**
 * Checks a presented secret against the stored hash. HMAC hashes cost microseconds; legacy scrypt
 * hashes cost one scrypt (`legacy` runs it, bounded by the caller). An unknown client (`stored`
 * undefined) is checked against a random HMAC, so it costs the same as a wrong secret.
 */
export async function verifyClientSecret(
  secret: string,
  stored: string | undefined,
  key: string,
  legacy: (run: () => Promise<boolean>) => Promise<boolean> = (run) => run(),
): Promise<boolean> {
  const presented = secret.slice(0, 1024);
  if (stored === undefined || !isLegacyHash(stored)) {
    const expected = stored ?? UNKNOWN;
    return safeEqual(hashClientSecret(presented, key), expected) && stored !== undefined;
  }
  return legacy(() => verifySecret(presented, stored));
}
const UNKNOWN = `${HMAC_PREFIX}${randomBytes(32).toString('base64url')}`;

const scrypt = (pw: string | Buffer, salt: Buffer, keylen: number, opts: ScryptOptions) =>
  new Promise<Buffer>((resolve, reject) =>
    scryptCb(pw, salt, keylen, opts, (err, key) => (err ? reject(err) : resolve(key))),
  );

/** N=2^14, r=8, p=1: ~16 MiB and tens of milliseconds per check (runs on libuv's thread pool). */
const SCRYPT_PARAMS = { N: 16384, r: 8, p: 1 } as const;
const KEYLEN = 32;
const MAX_N = 1 << 20;

export const generateClientId = (): string => CLIENT_ID_PREFIX + randomBytes(12).toString('hex');
/** 32 random bytes, base64url (43 characters). */
export const generateClientSecret = (): string => randomBytes(32).toString('base64url');
/** Standard Webhooks secret: `whsec_` + base64 of 32 random bytes. */
export const generateWebhookSecret = (): string => WEBHOOK_SECRET_PREFIX + randomBytes(32).toString('base64');

/** Legacy form `scrypt$N$r$p$<salt base64url>$<hash base64url>` (kept to verify old rows and in tests). */
export async function hashSecret(secret: string, params = SCRYPT_PARAMS): Promise<string> {
  const salt = randomBytes(16);
  const key = await scrypt(secret, salt, KEYLEN, { ...params, maxmem: 64 * 1024 * 1024 });
  return ['scrypt', params.N, params.r, params.p, salt.toString('base64url'), key.toString('base64url')].join(
    '$',
  );
}

interface Parsed {
  N: number;
  r: number;
  p: number;
  salt: Buffer;
  key: Buffer;
}

function parse(stored: string): Parsed | undefined {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return undefined;
  const [N, r, p] = parts.slice(1, 4).map(Number);
  if (!Number.isInteger(N) || N < 2 || N > MAX_N || (N & (N - 1)) !== 0) return undefined;
  if (!Number.isInteger(r) || r < 1 || r > 32 || !Number.isInteger(p) || p < 1 || p > 16) return undefined;
  const salt = Buffer.from(parts[4], 'base64url');
  const key = Buffer.from(parts[5], 'base64url');
  if (salt.length < 8 || key.length < 16) return undefined;
  return { N, r, p, salt, key };
}

/**
 * What unknown clients are checked against (same cost): random bytes in the place of a hash, which
 * no secret matches. Not the scrypt of a random secret: computing that at start cost 16 MiB.
 */
const DUMMY: Parsed = { ...SCRYPT_PARAMS, salt: randomBytes(16), key: randomBytes(KEYLEN) };

/**
 * Constant-time check of a presented secret against a stored hash. `stored` undefined (unknown
 * client) still costs one scrypt, so timing does not reveal whether a client exists.
 */
export async function verifySecret(secret: string, stored: string | undefined): Promise<boolean> {
  const real = stored === undefined ? undefined : parse(stored);
  const target = real ?? DUMMY;
  const got = await scrypt(secret.slice(0, 1024), target.salt, target.key.length, {
    N: target.N,
    r: target.r,
    p: target.p,
    maxmem: 256 * target.N * target.r + 1024 * 1024,
  });
  const same = got.length === target.key.length && timingSafeEqual(got, target.key);
  return real !== undefined && same;
}
