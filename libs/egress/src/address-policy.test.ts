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
    '64:ff9b:0:0:0:0:a00:1',
    '::ffff:0:10.0.0.1',
    // local-use NAT64 (RFC 8215): translates to whatever the operator's network holds
    '64:ff9b:1::1',
    '64:ff9b:1:ffff::808:808',
    // 6to4 judged by the IPv4 it carries (bits 16-47)
    '2002:7f00:1::1',
    '2002:a9fe:a9fe::',
    '2002:0a00:0001:0000:0000:0000:0000:0001',
    '2002::1',
    // Teredo: the real destination is hidden in the address
    '2001::1',
    '2001:0:4136:e378:8000:63bf:3fff:fdd2',
    'fe80::1%eth0',
    'not-an-ip',
  ])('refuses %s', (a) => {
    expect(isPublicAddress(a)).toBe(false);
  });

  it.each([
    '8.8.8.8',
    '1.1.1.1',
    '172.32.0.1',
    '100.128.0.1',
    '2606:4700:4700::1111',
    '::ffff:8.8.8.8',
    '64:ff9b::808:808',
    '64:ff9b:2::1',
    '2002:808:808::1',
    '2001:1::1',
    '2001:4860:4860::8888',
  ])('allows %s', (a) => {
    expect(isPublicAddress(a)).toBe(true);
  });

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
