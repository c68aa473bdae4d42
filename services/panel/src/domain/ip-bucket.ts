import ipaddr from 'ipaddr.js';

/**
 * The rate-limit bucket of a client address: an IPv4 address as is (an IPv4-mapped IPv6 address
 * counts as its IPv4), an IPv6 address by its /64 (one subscriber's network: a client rotating
 * addresses inside it stays in one bucket). Unparsable input is its own bucket.
 */
export function ipBucket(address: string): string {
  if (!ipaddr.isValid(address)) return `raw:${address}`;
  let ip = ipaddr.parse(address);
  if (ip.kind() === 'ipv6' && (ip as ipaddr.IPv6).isIPv4MappedAddress())
    ip = (ip as ipaddr.IPv6).toIPv4Address();
  if (ip.kind() === 'ipv4') return ip.toString();
  const parts = (ip as ipaddr.IPv6).parts.slice(0, 4).map((p) => p.toString(16));
  return `${parts.join(':')}::/64`;
}
