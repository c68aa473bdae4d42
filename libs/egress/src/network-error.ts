/**
 * What the attempt log (shown to merchants) says about a failed connection: a fixed text per error
 * code and the host of the URL, never the resolved address nor the system's message (it carries
 * IPs: showing them would let a merchant map internal DNS names by pointing a webhook at them).
 */
const TEXT: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset',
  ETIMEDOUT: 'connection timed out',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  EPIPE: 'connection closed',
  EPROTO: 'TLS protocol error',
  UND_ERR_SOCKET: 'connection closed',
};

/**
 * Name-resolution outcomes (getaddrinfo and c-ares codes): told apart, "not found" and "refused"
 * would say which internal names exist, so they all read as a refusal.
 */
const RESOLUTION = new Set([
  'EADDRREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EAI_FAIL',
  'EAI_NONAME',
  'ENODATA',
  'ESERVFAIL',
  'ETIMEOUT',
  'EREFUSED',
  'EFORMERR',
  'EBADRESP',
  'ENOTIMP',
  'EBADNAME',
  'ECANCELLED',
  'EDESTRUCTION',
]);

export function describeNetworkError(code: string | undefined, host: string): string {
  if (code && RESOLUTION.has(code)) return refusedHost(host);
  if (code && TEXT[code]) return `${code}: ${TEXT[code]} (${host})`;
  // TLS verification codes (CERT_HAS_EXPIRED, ERR_TLS_CERT_ALTNAME_INVALID, ...) are safe to show
  if (code && /^[A-Z0-9_]{3,60}$/.test(code)) return `${code} (${host})`;
  return `network error (${host})`;
}

/**
 * The one text for any destination that cannot be called: a non-public address, a name that does
 * not resolve, a DNS that fails or does not answer. Names the host the merchant gave, not an address.
 */
export const refusedHost = (host: string): string => `host ${host} refused (no public address)`;
