import { OdNetworkError, retryAfterMs } from './errors.ts';
import { backoffMs, DEFAULT_RETRY, RETRYABLE_STATUSES, type RetryPolicy, sleep } from './retry.ts';
import type { TokenManager } from './tokens.ts';

/** What the transport reports before each retry (for logs and metrics; never carries a secret). */
export interface RetryInfo {
  method: string;
  url: string;
  /** the attempt that failed (0-based) */
  attempt: number;
  status?: number;
  error?: string;
  waitMs: number;
}

export interface TransportOptions {
  tokens: TokenManager;
  retry?: Partial<RetryPolicy>;
  /** per attempt (default 15 s); a timeout is retried like a network error */
  timeoutMs?: number;
  fetch?: typeof fetch;
  onRetry?: (info: RetryInfo) => void;
}

/**
 * A `fetch` for openapi-fetch that applies the API's client rules to every call: the shared bearer
 * token; `401` without a body -> renew the token once and repeat; `429` / `5xx` / network errors /
 * timeouts -> the same request again (same body, same `Idempotency-Key`) after full-jitter backoff,
 * never sooner than `Retry-After`; anything else is returned as is (the caller turns it into an
 * error). The caller's `AbortSignal` stops it at once.
 */
export function authorizedFetch(o: TransportOptions): (input: Request) => Promise<Response> {
  const policy: RetryPolicy = { ...DEFAULT_RETRY, ...o.retry };
  const f = o.fetch ?? fetch;
  return async (input: Request) => {
    // read once: every attempt sends the same bytes
    const body = input.body ? await input.arrayBuffer() : undefined;
    const signal = input.signal;
    let renewed = false;
    for (let attempt = 0; ; attempt++) {
      const last = attempt + 1 >= policy.attempts;
      const token = await o.tokens.get();
      const headers = new Headers(input.headers);
      headers.set('authorization', `Bearer ${token}`);
      const timeout = AbortSignal.timeout(o.timeoutMs ?? 15_000);
      let res: Response;
      try {
        res = await f(input.url, {
          method: input.method,
          headers,
          body,
          redirect: 'error',
          signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
        });
      } catch (e) {
        if (signal?.aborted) throw signal.reason;
        if (last)
          throw new OdNetworkError(`${input.method} ${input.url}: ${(e as Error).message}`, { cause: e });
        const waitMs = backoffMs(attempt, policy);
        o.onRetry?.({ method: input.method, url: input.url, attempt, error: (e as Error).message, waitMs });
        await sleep(waitMs, signal);
        continue;
      }
      if (res.status === 401 && !renewed && (await bodiless(res))) {
        // the token expired or was rotated: one new token, one more try (not counted as a retry)
        renewed = true;
        await o.tokens.invalidate(token);
        attempt--;
        continue;
      }
      const wait = retryAfterMs(res.headers);
      if (!RETRYABLE_STATUSES.has(res.status) || last || (wait ?? 0) > policy.maxRetryAfterMs) return res;
      await res.body?.cancel();
      const waitMs = backoffMs(attempt, policy, wait);
      o.onRetry?.({ method: input.method, url: input.url, attempt, status: res.status, waitMs });
      await sleep(waitMs, signal);
    }
  };
}

/** A 401 with no error code (expired or unknown token), as opposed to `invalid_token` (stop). */
async function bodiless(res: Response): Promise<boolean> {
  const text = await res.clone().text();
  if (!text.trim()) return true;
  try {
    return typeof (JSON.parse(text) as { error?: unknown }).error !== 'string';
  } catch {
    return true;
  }
}
