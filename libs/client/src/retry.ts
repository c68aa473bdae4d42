/**
 * The API's retry rules (docs/api.md "Errors"): retry `429` (never sooner than `Retry-After`),
 * `500`, `502`, `503`, `504`, timeouts and network errors, with exponential backoff and full jitter;
 * never `400`, `403`, `404`, `409`, `422`; a `401` once, after renewing the token (transport.ts).
 */
export interface RetryPolicy {
  /** attempts of one call, the first included (default 5; 1 = never retry) */
  attempts: number;
  /** backoff base (default 500 ms): attempt n waits a random time in [0, min(maxMs, baseMs * 2^n)] */
  baseMs: number;
  /** backoff cap (default 30 s) */
  maxMs: number;
  /**
   * Longest `Retry-After` worth waiting for inside one call (default 120 s); a longer one ends the
   * call with the error (an {@link OdRateLimitError} carrying `retryAfterSeconds`).
   */
  maxRetryAfterMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = {
  attempts: 5,
  baseMs: 500,
  maxMs: 30_000,
  maxRetryAfterMs: 120_000,
};

/** Statuses worth another attempt (the same request, the same Idempotency-Key). */
export const RETRYABLE_STATUSES: ReadonlySet<number> = new Set([429, 500, 502, 503, 504]);

/** Full-jitter exponential backoff for attempt `n` (0-based), never below `retryAfterMs`. */
export function backoffMs(
  n: number,
  p: Pick<RetryPolicy, 'baseMs' | 'maxMs'>,
  retryAfterMs = 0,
  random = Math.random,
): number {
  const cap = Math.min(p.maxMs, p.baseMs * 2 ** n);
  return Math.max(retryAfterMs, Math.round(random() * cap));
}

/** Waits `ms`; rejects with the signal's reason when it aborts first. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(t);
      reject(signal?.reason);
    };
    const t = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
