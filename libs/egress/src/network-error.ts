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
  ENOTFOUND: 'name not found',
  EAI_AGAIN: 'name resolution failed',
  EPIPE: 'connection closed',
  EPROTO: 'TLS protocol error',
  UND_ERR_SOCKET: 'connection closed',
};

export function describeNetworkError(code: string | undefined, host: string): string {
  if (code && TEXT[code]) return `${code}: ${TEXT[code]} (${host})`;
  // TLS verification codes (CERT_HAS_EXPIRED, ERR_TLS_CERT_ALTNAME_INVALID, ...) are safe to show
  if (code && /^[A-Z0-9_]{3,60}$/.test(code)) return `${code} (${host})`;
  return `network error (${host})`;
}

/** The refusal of a non-public destination: names the host the merchant gave, not the address. */
export const refusedHost = (host: string): string => `host ${host} refused (non-public network)`;
