import { describe, expect, it } from 'vitest';
import { ipBucket } from './ip-bucket.ts';

describe('ipBucket', () => {
  it('an IPv6 client is its /64, however it writes or rotates the interface id', () => {
    const a = ipBucket('2001:db8:1:2:aaaa:bbbb:cccc:dddd');
    expect(a).toBe('2001:db8:1:2::/64');
    expect(ipBucket('2001:0db8:0001:0002::1')).toBe(a);
    expect(ipBucket('2001:db8:1:2:ffff::')).toBe(a);
    expect(ipBucket('2001:db8:1:3::1')).not.toBe(a);
  });

  it('IPv4 as is; IPv4-mapped IPv6 counts as its IPv4; garbage is its own bucket', () => {
    expect(ipBucket('192.0.2.7')).toBe('192.0.2.7');
    expect(ipBucket('::ffff:192.0.2.7')).toBe('192.0.2.7');
    expect(ipBucket('not-an-ip')).toBe('raw:not-an-ip');
  });
});
