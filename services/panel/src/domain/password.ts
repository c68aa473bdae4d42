import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import { PANEL_PASSWORD_MAX, PANEL_PASSWORD_MIN } from '@od/contracts';

/**
 * Passwords: node's scrypt (memory-hard). N = 2^15, r = 8, p = 1 uses 32 MiB and ~50-100 ms per
 * hash on one core: slow enough for a leaked table, bounded per sign-in (sign-in is rate limited).
 * Stored as `scrypt$N$r$p$salt$hash` so the cost can be raised later without breaking old hashes.
 */
const N = 2 ** 15;
const R = 8;
const P = 1;
const KEY_LEN = 32;
const MAX_MEM = 64 * 1024 * 1024;

/** NIST SP 800-63B: at least 12 characters, long passphrases allowed, no composition rules. */
export const PASSWORD_MIN = PANEL_PASSWORD_MIN;
export const PASSWORD_MAX = PANEL_PASSWORD_MAX;

/**
 * The ~49,000 most common passwords of public breach corpora, as shipped (and kept) by zxcvbn-ts
 * (`@zxcvbn-ts/language-common`, `passwords-common`): a password on it is refused whatever its
 * length. Compared lower-cased and without spaces, so `Qwerty123456` and `qwerty 123456` count too.
 */
let common: Promise<Set<string>> | undefined;
// loaded on the first password set, not at start: the package and the set hold ~5 MB of heap
const commonPasswords = () =>
  (common ??= import('@zxcvbn-ts/language-common').then(
    ({ dictionary }) => new Set(dictionary['passwords-common'].map((p) => p.toLowerCase())),
  ));
const commonForm = (password: string) => password.normalize('NFC').toLowerCase().replace(/\s+/g, '');

function derive(password: string, salt: Buffer, n: number, r: number, p: number): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(password.normalize('NFC'), salt, KEY_LEN, { N: n, r, p, maxmem: MAX_MEM }, (err, key) =>
      err ? reject(err) : resolve(key),
    ),
  );
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, N, R, P);
  return ['scrypt', N, R, P, salt.toString('base64url'), key.toString('base64url')].join('$');
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [kind, n, r, p, salt, hash] = stored.split('$');
  if (kind !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64url');
  const key = await derive(password, Buffer.from(salt, 'base64url'), Number(n), Number(r), Number(p));
  return key.length === expected.length && timingSafeEqual(key, expected);
}

/** A hash of a random password: verifying against it costs the same as a real one (no user enumeration by timing). */
export const DUMMY_HASH = hashPassword(randomBytes(16).toString('hex'));

/** pt-BR message for a password that breaks the policy, or null. */
export async function passwordProblem(password: unknown): Promise<string | null> {
  if (typeof password !== 'string') return 'password é obrigatório.';
  const length = [...password].length;
  if (length < PASSWORD_MIN) return `A senha deve ter no mínimo ${PASSWORD_MIN} caracteres.`;
  if (length > PASSWORD_MAX) return `A senha deve ter no máximo ${PASSWORD_MAX} caracteres.`;
  if ((await commonPasswords()).has(commonForm(password)))
    return 'Esta senha está entre as mais usadas em vazamentos de dados. Escolha outra.';
  if (new Set(password).size < 4) return 'A senha repete poucos caracteres. Escolha outra.';
  return null;
}
