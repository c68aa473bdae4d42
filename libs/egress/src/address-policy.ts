import { BlockList, isIP } from 'node:net';

/**
 * Where outgoing calls to integrator-supplied URLs (webhooks, the Open Delivery `GET /v1/merchant`
 * fetch) may go: public unicast addresses only. Refused: unspecified, "this network",
 * private (RFC 1918), CGNAT (100.64/10), loopback, link-local (incl. 169.254.169.254 metadata),
 * IETF/benchmark/documentation/reserved ranges, multicast, broadcast; IPv6 loopback, unique-local
 * (fc00::/7), link-local (fe80::/10), multicast, documentation, and IPv4 embedded in IPv6
 * (mapped, compatible, NAT64) judged by the embedded IPv4 address.
 */
const blocked = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  blocked.addSubnet(net, bits, 'ipv4');
}
for (const [net, bits] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
  ['2001:db8::', 32],
  ['100::', 64],
] as const) {
  blocked.addSubnet(net, bits, 'ipv6');
}

/** IPv4 carried inside an IPv6 address (::ffff:a.b.c.d, ::a.b.c.d, 64:ff9b::a.b.c.d), else null. */
function embeddedIpv4(addr: string): string | null {
  const lower = addr.toLowerCase();
  const dotted = /^(?:::ffff:|::|64:ff9b::)(\d+\.\d+\.\d+\.\d+)$/.exec(lower);
  if (dotted) return dotted[1];
  const hex = /^(?:::ffff:|64:ff9b::|::)([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(lower);
  if (hex) {
    const hi = Number.parseInt(hex[1], 16);
    const lo = Number.parseInt(hex[2], 16);
    return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
  }
  return null;
}

/** true when an outgoing call may connect to this IP address (literal). Unknown formats are refused. */
export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return !blocked.check(address, 'ipv4');
  if (family === 6) {
    const v4 = embeddedIpv4(address);
    if (v4 !== null) return isIP(v4) === 4 && !blocked.check(v4, 'ipv4');
    return !blocked.check(address, 'ipv6');
  }
  return false;
}

export type UrlCheck = { ok: true; url: URL } | { ok: false; error: string };

/**
 * Static checks of an outgoing URL (before any DNS): https only, no credentials in it. `label` names
 * the URL in the error (`webhook URL must use https`).
 */
export function checkHttpsUrl(raw: string, label = 'webhook URL'): UrlCheck {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, error: `invalid ${label}` };
  }
  if (url.protocol !== 'https:') return { ok: false, error: `${label} must use https` };
  if (url.username || url.password) return { ok: false, error: `${label} must not carry credentials` };
  if (!url.hostname) return { ok: false, error: `${label} without host` };
  return { ok: true, url };
}
