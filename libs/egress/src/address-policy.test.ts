import { describe, expect, it } from 'vitest';
import { checkHttpsUrl, isPublicAddress } from './address-policy.ts';

describe('webhook address policy', () => {
  it.each([
    '127.0.0.1',
    '127.255.0.9',
    '10.1.2.3',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.1',
    '169.254.169.254',
    '169.254.0.1',
    '100.64.0.1',
    '100.127.255.254',
    '0.0.0.0',
    '224.0.0.1',
    '255.255.255.255',
    '::1',
    '::',
    'fe80::1',
    'fd00::1',
    'fc12:3456::1',
    'ff02::1',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::ffff:169.254.169.254',
    '::ffff:a9fe:a9fe',
    '64:ff9b::10.0.0.1',
    'not-an-ip',
  ])('refuses %s', (a) => {
    expect(isPublicAddress(a)).toBe(false);
  });

  it.each(['8.8.8.8', '1.1.1.1', '172.32.0.1', '100.128.0.1', '2606:4700:4700::1111', '::ffff:8.8.8.8'])(
    'allows %s',
    (a) => {
      expect(isPublicAddress(a)).toBe(true);
    },
  );

  it('accepts only https URLs without credentials', () => {
    expect(checkHttpsUrl('https://example.com/hook').ok).toBe(true);
    expect(checkHttpsUrl('http://example.com/hook')).toEqual({
      ok: false,
      error: 'webhook URL must use https',
    });
    expect(checkHttpsUrl('https://u:p@example.com/').ok).toBe(false);
    expect(checkHttpsUrl('ftp://example.com/').ok).toBe(false);
    expect(checkHttpsUrl('nonsense').ok).toBe(false);
    expect(checkHttpsUrl('http://pos.example/v1/merchant', 'merchant URL')).toEqual({
      ok: false,
      error: 'merchant URL must use https',
    });
  });
});
