import dns from 'node:dns';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { checkWebhookUrl, isPublicAddress } from './domain/address-policy.ts';
import { describeNetworkError, refusedHost } from './domain/attempt-error.ts';

export interface SendResult {
  statusCode: number | null;
  /** network error, timeout, refused address or non-2xx explanation; never contains a secret */
  error: string | null;
  durationMs: number;
  success: boolean;
}

export interface SendOptions {
  url: string;
  headers: Record<string, string>;
  body: string;
  timeoutMs: number;
  allowPrivateNetworks: boolean;
  agent?: https.Agent;
  signal?: AbortSignal;
}

/** Response bytes read at most (the answer is only drained, never interpreted). */
export const MAX_RESPONSE_BYTES = 64 * 1024;

export class AbortedError extends Error {}

/**
 * DNS resolution that validates every address the name resolves to (not just the first one) and
 * hands only validated addresses to the socket: the connection goes to an address that was checked,
 * so a DNS answer changing between check and connect (rebinding) cannot slip through.
 */
export function guardedLookup(allowPrivate: boolean): LookupFunction {
  return (hostname, options, callback) => {
    dns.lookup(
      hostname,
      { all: true, family: options.family ?? 0, hints: options.hints },
      (err, addresses) => {
        if (err) return callback(err, '', 0);
        if (!allowPrivate) {
          const bad = addresses.find((a) => !isPublicAddress(a.address));
          if (bad) {
            const e = Object.assign(new Error(refusedHost(hostname)), { code: 'EADDRREFUSED' });
            return callback(e, '', 0);
          }
        }
        if (addresses.length === 0) return callback(new Error(`no address for ${hostname}`), '', 0);
        if ((options as { all?: boolean }).all) return (callback as any)(null, addresses);
        return callback(null, addresses[0].address, addresses[0].family);
      },
    );
  };
}

export function createAgent(allowPrivate: boolean, perHost: number): https.Agent {
  return new https.Agent({
    keepAlive: true,
    keepAliveMsecs: 1_000,
    maxSockets: perHost,
    maxFreeSockets: perHost,
    timeout: 30_000,
    scheduling: 'lifo',
    lookup: guardedLookup(allowPrivate),
  } as https.AgentOptions);
}

/** One POST; resolves (never rejects) with what happened, or rejects with AbortedError on `signal`. */
export function sendWebhook(opts: SendOptions): Promise<SendResult> {
  const started = performance.now();
  const done = (statusCode: number | null, error: string | null): SendResult => ({
    statusCode,
    error,
    durationMs: Math.round(performance.now() - started),
    success: statusCode !== null && statusCode >= 200 && statusCode < 300,
  });
  const checked = checkWebhookUrl(opts.url);
  if (!checked.ok) return Promise.resolve(done(null, checked.error));
  const url = checked.url;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  // literal IPs never reach `lookup`: check them here
  if (isIP(host) && !opts.allowPrivateNetworks && !isPublicAddress(host)) {
    return Promise.resolve(done(null, refusedHost(host)));
  }
  const lookup = guardedLookup(opts.allowPrivateNetworks);
  return new Promise<SendResult>((resolve, reject) => {
    let settled = false;
    const finish = (r: SendResult | Error) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      opts.signal?.removeEventListener('abort', onAbort);
      if (r instanceof Error) reject(r);
      else resolve(r);
    };
    const body = Buffer.from(opts.body, 'utf8');
    const req = https.request(url, {
      method: 'POST',
      headers: { ...opts.headers, 'content-length': String(body.length), 'user-agent': 'od-webhook/1.0' },
      agent: opts.agent,
      lookup,
    });
    const timer = setTimeout(() => {
      finish(done(null, `timeout after ${opts.timeoutMs} ms`));
      req.destroy();
    }, opts.timeoutMs);
    const onAbort = () => {
      finish(new AbortedError('aborted'));
      req.destroy();
    };
    if (opts.signal?.aborted) return onAbort();
    opts.signal?.addEventListener('abort', onAbort, { once: true });
    req.on('error', (e: NodeJS.ErrnoException) => {
      // the attempt log shows the host and what happened, never the resolved address
      finish(done(null, e.code === 'EADDRREFUSED' ? e.message : describeNetworkError(e.code, host)));
    });
    req.on('response', (res) => {
      const status = res.statusCode ?? 0;
      let read = 0;
      const end = () => {
        const error =
          status >= 200 && status < 300
            ? null
            : status >= 300 && status < 400
              ? `HTTP ${status}: redirect not followed`
              : `HTTP ${status}`;
        finish(done(status, error));
      };
      res.on('data', (chunk: Buffer) => {
        read += chunk.length;
        if (read > MAX_RESPONSE_BYTES) {
          end();
          res.destroy();
        }
      });
      res.on('end', end);
      res.on('error', end);
      res.on('close', end);
    });
    req.end(body);
  });
}
