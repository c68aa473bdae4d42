import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { type Keyring, KeyringError } from './keyring.ts';

/**
 * AES-256-GCM with a key id. The sealed form is `<keyId>.<base64url(iv | ciphertext | tag)>`, so a
 * value names the key that opens it and rotation can find every value not under the active key.
 * `context` is bound as additional authenticated data (e.g. the owning row's id): a sealed value
 * copied onto another row does not open.
 */
export interface SecretBox {
  readonly activeId: string;
  seal(plain: string, context: string): string;
  open(sealed: string, context: string): string;
  /** the key id a sealed value was made with (undefined when the value is not sealed) */
  keyIdOf(sealed: string): string | undefined;
}

const IV = 12;
const TAG = 16;
const SEALED = /^([A-Za-z0-9_-]{1,32})\.([A-Za-z0-9_-]+)$/;

export class SealError extends Error {}

export function createSecretBox(ring: Keyring): SecretBox {
  return {
    activeId: ring.activeId,
    seal(plain, context) {
      const key = ring.keys.get(ring.activeId) as Buffer;
      const iv = randomBytes(IV);
      const c = createCipheriv('aes-256-gcm', key, iv);
      c.setAAD(Buffer.from(context, 'utf8'));
      const body = Buffer.concat([c.update(plain, 'utf8'), c.final()]);
      return `${ring.activeId}.${Buffer.concat([iv, body, c.getAuthTag()]).toString('base64url')}`;
    },
    open(sealed, context) {
      const m = SEALED.exec(sealed);
      if (!m) throw new SealError('not a sealed value');
      const key = ring.keys.get(m[1]);
      if (!key) throw new KeyringError(`key ${m[1]} is not in SECRETS_KEYS`);
      const raw = Buffer.from(m[2], 'base64url');
      if (raw.length < IV + TAG) throw new SealError('sealed value too short');
      const d = createDecipheriv('aes-256-gcm', key, raw.subarray(0, IV));
      d.setAAD(Buffer.from(context, 'utf8'));
      d.setAuthTag(raw.subarray(raw.length - TAG));
      try {
        return Buffer.concat([d.update(raw.subarray(IV, raw.length - TAG)), d.final()]).toString('utf8');
      } catch {
        throw new SealError('sealed value does not open (altered, or another row)');
      }
    },
    keyIdOf: (sealed) => SEALED.exec(sealed)?.[1],
  };
}
