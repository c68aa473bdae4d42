/**
 * Encryption keys from the environment: `SECRETS_KEYS="id1:<base64 of 32 bytes>,id2:<...>"` and the
 * id of the one new data is encrypted with (`SECRETS_ACTIVE_KEY`, default the first listed). Old
 * keys stay listed until `odctl secrets rotate-key` has re-encrypted every row under the active one.
 */
export interface Keyring {
  activeId: string;
  keys: ReadonlyMap<string, Buffer>;
}

export class KeyringError extends Error {}

const KEY_ID = /^[A-Za-z0-9_-]{1,32}$/;
export const KEY_BYTES = 32;

export function parseKeyring(list: string, active?: string): Keyring {
  const keys = new Map<string, Buffer>();
  for (const raw of list.split(',')) {
    const entry = raw.trim();
    if (!entry) continue;
    const colon = entry.indexOf(':');
    const id = colon < 0 ? '' : entry.slice(0, colon);
    if (!KEY_ID.test(id))
      throw new KeyringError('each key is "<id>:<base64>", id of letters, digits, _ or -');
    const key = Buffer.from(entry.slice(colon + 1), 'base64');
    if (key.length !== KEY_BYTES) throw new KeyringError(`key ${id} must be ${KEY_BYTES} bytes (base64)`);
    if (keys.has(id)) throw new KeyringError(`key ${id} listed twice`);
    keys.set(id, key);
  }
  const activeId = active || keys.keys().next().value;
  if (!activeId) throw new KeyringError('no key listed');
  if (!keys.has(activeId)) throw new KeyringError(`active key ${activeId} is not listed`);
  return { activeId, keys };
}
