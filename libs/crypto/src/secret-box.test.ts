import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { KeyringError, parseKeyring } from './keyring.ts';
import { createSecretBox, SealError } from './secret-box.ts';

const k = () => randomBytes(32).toString('base64');

describe('keyring', () => {
  it('parses ids and 32-byte keys; active defaults to the first', () => {
    const ring = parseKeyring(` a:${k()} , b_2:${k()}`);
    expect(ring.activeId).toBe('a');
    expect([...ring.keys.keys()]).toEqual(['a', 'b_2']);
    expect(parseKeyring(`a:${k()},b:${k()}`, 'b').activeId).toBe('b');
  });

  it('refuses short keys, bad ids, duplicates, an unknown active key and an empty list', () => {
    expect(() => parseKeyring(`a:${randomBytes(16).toString('base64')}`)).toThrow(KeyringError);
    expect(() => parseKeyring(`a b:${k()}`)).toThrow(KeyringError);
    expect(() => parseKeyring(k())).toThrow(KeyringError);
    expect(() => parseKeyring(`a:${k()},a:${k()}`)).toThrow(KeyringError);
    expect(() => parseKeyring(`a:${k()}`, 'z')).toThrow(KeyringError);
    expect(() => parseKeyring('')).toThrow(KeyringError);
  });
});

describe('secret box (AES-256-GCM with key id)', () => {
  const ring = parseKeyring(`old:${k()},new:${k()}`, 'new');
  const box = createSecretBox(ring);

  it('round-trips, names the key, never shows the plaintext, random IV', () => {
    const s = box.seal('whsec_abc', 'row-1');
    expect(s.startsWith('new.')).toBe(true);
    expect(s).not.toContain('whsec_abc');
    expect(box.keyIdOf(s)).toBe('new');
    expect(box.open(s, 'row-1')).toBe('whsec_abc');
    expect(box.seal('whsec_abc', 'row-1')).not.toBe(s);
    expect(box.keyIdOf('whsec_plain')).toBeUndefined();
  });

  it('opens values sealed under an older key still listed', () => {
    const old = createSecretBox(parseKeyring(`old:${ring.keys.get('old')?.toString('base64')}`));
    const s = old.seal('x', 'c');
    expect(box.open(s, 'c')).toBe('x');
  });

  it('refuses another context, an altered value, an unknown key', () => {
    const s = box.seal('secret', 'row-1');
    expect(() => box.open(s, 'row-2')).toThrow(SealError);
    const raw = Buffer.from(s.split('.')[1], 'base64url');
    raw[raw.length - 20] ^= 1;
    expect(() => box.open(`new.${raw.toString('base64url')}`, 'row-1')).toThrow(SealError);
    expect(() => box.open(`gone.${s.split('.')[1]}`, 'row-1')).toThrow(KeyringError);
    expect(() => box.open('whsec_plain', 'row-1')).toThrow(SealError);
  });
});
