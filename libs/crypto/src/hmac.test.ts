import { describe, expect, it } from 'vitest';
import { hmacSha256, safeEqual } from './hmac.ts';

describe('hmac', () => {
  it('is keyed and deterministic (RFC 4231 case 2)', () => {
    expect(Buffer.from(hmacSha256('Jefe', 'what do ya want for nothing?'), 'base64url').toString('hex')).toBe(
      '5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843',
    );
    expect(hmacSha256('k1', 'v')).not.toBe(hmacSha256('k2', 'v'));
  });

  it('safeEqual compares content and length', () => {
    expect(safeEqual('abc', 'abc')).toBe(true);
    expect(safeEqual('abc', 'abd')).toBe(false);
    expect(safeEqual('abc', 'abcd')).toBe(false);
  });
});
