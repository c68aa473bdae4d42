import type https from 'node:https';
import { AbortedError, type EgressDns, outboundRequest } from '@od/egress';

export { AbortedError };

export interface SendResult {
  statusCode: number | null;
  /** network error, timeout, refused address or non-2xx explanation; never contains a secret */
  error: string | null;
  durationMs: number;
  success: boolean;
  /** the answer's first `keepBodyBytes` bytes, when asked */
  body?: string;
}

export interface SendOptions {
  url: string;
  headers: Record<string, string>;
  body: string;
  timeoutMs: number;
  allowPrivateNetworks: boolean;
  agent?: https.Agent;
  dns?: EgressDns;
  signal?: AbortSignal;
  /** keep the first bytes of the answer (the panel's test event shows them), as text */
  keepBodyBytes?: number;
}

/** Response bytes read at most (the answer is only drained, never interpreted). */
export const MAX_RESPONSE_BYTES = 64 * 1024;

/**
 * One webhook POST under the SSRF rules of @od/egress; resolves (never rejects) with what happened,
 * or rejects with AbortedError on `signal`. Any 2xx is a success; a 3xx is a failure (redirects are
 * not followed).
 */
export async function sendWebhook(opts: SendOptions): Promise<SendResult> {
  const { keepBodyBytes, ...rest } = opts;
  const r = await outboundRequest({
    ...rest,
    method: 'POST',
    maxResponseBytes: keepBodyBytes ?? MAX_RESPONSE_BYTES,
    keepBody: keepBodyBytes !== undefined,
  });
  const status = r.statusCode;
  const success = status !== null && status >= 200 && status < 300;
  const error =
    r.error ??
    (status === null || success
      ? null
      : status >= 300 && status < 400
        ? `HTTP ${status}: redirect not followed`
        : `HTTP ${status}`);
  return {
    statusCode: status,
    error,
    durationMs: r.durationMs,
    success,
    ...(keepBodyBytes !== undefined ? { body: r.body.toString('utf8') } : {}),
  };
}
