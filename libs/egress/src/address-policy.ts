import { BlockList, isIP } from 'node:net';

/**
 * Where outgoing calls to integrator-supplied URLs (webhooks, the Open Delivery `GET /v1/merchant`
 * fetch) may go: public unicast addresses only. Refused: unspecified, "this network",
 * private (RFC 1918), CGNAT (100.64/10), loopback, link-local (incl. 169.254.169.254 metadata),
 * IETF/benchmark/documentation/reserved ranges, multicast, broadcast; IPv6 loopback, unique-local
 * (fc00::/7), link-local (fe80::/10), multicast, documentation, Teredo (2001::/32: tunnels to an
 * address it does not show), local-use NAT64 (64:ff9b:1::/48: translates to any network), and IPv4
 * embedded in IPv6 (mapped, compatible, translated, NAT64 64:ff9b::/96, 6to4 2002::/16) judged by
 * the embedded IPv4 address.
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
  ['2001::', 32],
  ['64:ff9b:1::', 48],
] as const) {
  blocked.addSubnet(net, bits, 'ipv6');
}

/** The 8 groups of an IPv6 address (any spelling: the URL parser canonicalises it). */
function groups(addr: string): number[] {
  const canonical = new URL(`http://[${addr}]/`).hostname.slice(1, -1);
  const [head, tail] = canonical.split('::');
  const h = head ? head.split(':') : [];
  const t = tail ? tail.split(':') : [];
  const fill = tail === undefined ? [] : Array<string>(8 - h.length - t.length).fill('0');
  return [...h, ...fill, ...t].map((g) => Number.parseInt(g, 16));
}

const v4 = (hi: number, lo: number) => `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;

/**
 * IPv4 carried inside an IPv6 address, else null: mapped (::ffff:a.b.c.d), translated
 * (::ffff:0:a.b.c.d), compatible (::a.b.c.d), NAT64 (64:ff9b::a.b.c.d), 6to4 (2002:aabb:ccdd::).
 */
function embeddedIpv4(addr: string): string | null {
  const g = groups(addr);
  const zero = (from: number, to: number) => g.slice(from, to).every((x) => x === 0);
  if (g[0] === 0x2002) return v4(g[1], g[2]);
  if (zero(0, 4) && ((g[4] === 0 && (g[5] === 0xffff || g[5] === 0)) || (g[4] === 0xffff && g[5] === 0)))
    return v4(g[6], g[7]);
  if (g[0] === 0x64 && g[1] === 0xff9b && zero(2, 6)) return v4(g[6], g[7]);
  return null;
}

/** true when an outgoing call may connect to this IP address (literal). Unknown formats are refused. */
export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return !blocked.check(address, 'ipv4');
  if (family === 6) {
    try {
      if (blocked.check(address, 'ipv6')) return false;
      const inner = embeddedIpv4(address);
      return inner === null || !blocked.check(inner, 'ipv4');
    } catch {
      return false; // a zone id (fe80::1%eth0) or anything the URL parser will not take
    }
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
