import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { checkHttpsUrl, isPublicAddress } from './address-policy.ts';
import { defaultEgressDns, type EgressDns } from './dns.ts';
import { describeNetworkError, refusedHost } from './network-error.ts';

/**
 * DNS resolution (`dns`, c-ares with its own deadline: see dns.ts) that validates every address the
 * name resolves to (not just the first one) and hands only validated addresses to the socket: the
 * connection goes to an address that was checked, so a DNS answer changing between check and
 * connect (rebinding) cannot slip through. Every failure, refusal or not, is one neutral error.
 */
export function guardedLookup(allowPrivate: boolean, dns: EgressDns = defaultEgressDns()): LookupFunction {
  return (hostname, options, callback) => {
    const refuse = () =>
      callback(Object.assign(new Error(refusedHost(hostname)), { code: 'EADDRREFUSED' }), '', 0);
    const family = options.family === 'IPv4' ? 4 : options.family === 'IPv6' ? 6 : options.family;
    dns.resolve(hostname).then((found) => {
      if (!allowPrivate && found.some((a) => !isPublicAddress(a.address))) return refuse();
      const addresses = family === 4 || family === 6 ? found.filter((a) => a.family === family) : found;
      if (addresses.length === 0) return refuse();
      if ((options as { all?: boolean }).all) return (callback as any)(null, addresses);
      return callback(null, addresses[0].address, addresses[0].family);
    }, refuse);
  };
}

/** A keep-alive agent whose sockets connect only to checked addresses. */
export function createAgent(
  allowPrivate: boolean,
  perHost: number,
  dns: EgressDns = defaultEgressDns(),
): https.Agent {
  return new https.Agent({
    keepAlive: true,
    keepAliveMsecs: 1_000,
    maxSockets: perHost,
    maxFreeSockets: perHost,
    timeout: 30_000,
    scheduling: 'lifo',
    lookup: guardedLookup(allowPrivate, dns),
  } as https.AgentOptions);
}

export interface OutboundRequest {
  method: 'GET' | 'POST';
  url: string;
  headers: Record<string, string>;
  body?: string;
  /** the whole exchange: connect, send, answer head and body */
  timeoutMs: number;
  /** lifts the address check (tests, on-premise); the https and no-credentials rules stay */
  allowPrivateNetworks: boolean;
  /** answer bytes read at most; beyond that the answer is cut (`truncated`) */
  maxResponseBytes: number;
  /** keep the answer's bytes (up to maxResponseBytes) in `body` */
  keepBody?: boolean;
  /** names the URL in static refusals ("webhook URL must use https") */
  label?: string;
  agent?: https.Agent;
  /** the resolver of outgoing calls (EGRESS_DNS_SERVERS, EGRESS_DNS_TIMEOUT); default the system's */
  dns?: EgressDns;
  signal?: AbortSignal;
}

export interface OutboundResult {
  /** null when no answer arrived (refused, network error, timeout) */
  statusCode: number | null;
  /** what went wrong before an answer: never a resolved address nor a secret */
  error: string | null;
  durationMs: number;
  /** the answer's bytes when `keepBody` (empty when `truncated`) */
  body: Buffer;
  /** the answer was longer than maxResponseBytes */
  truncated: boolean;
}

export class AbortedError extends Error {}

/**
 * One HTTPS request to an integrator-supplied URL under the SSRF rules (README): https only, no
 * credentials in the URL, literal IPs and every resolved address checked, redirects never followed,
 * bounded time and answer size. Resolves (never rejects) with what happened; rejects with
 * AbortedError only on `signal`.
 */
export function outboundRequest(o: OutboundRequest): Promise<OutboundResult> {
  const started = performance.now();
  const chunks: Buffer[] = [];
  let truncated = false;
  const done = (statusCode: number | null, error: string | null): OutboundResult => ({
    statusCode,
    error,
    durationMs: Math.round(performance.now() - started),
    // a cut answer is of no use: not copied
    body: truncated ? Buffer.alloc(0) : Buffer.concat(chunks),
    truncated,
  });
  const checked = checkHttpsUrl(o.url, o.label);
  if (!checked.ok) return Promise.resolve(done(null, checked.error));
  const url = checked.url;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  // literal IPs never reach `lookup`: check them here
  if (isIP(host) && !o.allowPrivateNetworks && !isPublicAddress(host)) {
    return Promise.resolve(done(null, refusedHost(host)));
  }
  return new Promise<OutboundResult>((resolve, reject) => {
    let settled = false;
    const finish = (r: OutboundResult | Error) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      o.signal?.removeEventListener('abort', onAbort);
      if (r instanceof Error) reject(r);
      else resolve(r);
    };
    const body = o.body === undefined ? undefined : Buffer.from(o.body, 'utf8');
    const req = https.request(url, {
      method: o.method,
      headers: {
        ...o.headers,
        ...(body ? { 'content-length': String(body.length) } : {}),
        'user-agent': 'od-platform/1.0',
      },
      agent: o.agent,
      lookup: guardedLookup(o.allowPrivateNetworks, o.dns),
    });
    const timer = setTimeout(() => {
      finish(done(null, `timeout after ${o.timeoutMs} ms`));
      req.destroy();
    }, o.timeoutMs);
    const onAbort = () => {
      finish(new AbortedError('aborted'));
      req.destroy();
    };
    if (o.signal?.aborted) return onAbort();
    o.signal?.addEventListener('abort', onAbort, { once: true });
    req.on('error', (e: NodeJS.ErrnoException) => {
      // the caller shows the host and what happened, never the resolved address
      finish(done(null, e.code === 'EADDRREFUSED' ? e.message : describeNetworkError(e.code, host)));
    });
    req.on('response', (res) => {
      const status = res.statusCode ?? 0;
      let read = 0;
      const end = () => finish(done(status, null));
      const declared = Number(res.headers['content-length']);
      if (declared > o.maxResponseBytes) {
        // announced over the budget: not a byte is read
        truncated = true;
        end();
        res.destroy();
        return;
      }
      // the budget is checked per chunk as it arrives: never more than the budget is kept
      res.on('data', (chunk: Buffer) => {
        read += chunk.length;
        if (read > o.maxResponseBytes) {
          truncated = true;
          end();
          res.destroy();
          return;
        }
        if (o.keepBody) chunks.push(chunk);
      });
      res.on('end', end);
      res.on('error', end);
      res.on('close', end);
    });
    req.end(body);
  });
}
