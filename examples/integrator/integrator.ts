/**
 * Reference integrator for the event feed (SPEC "Integration cycle"): obtain a token, poll pending
 * events, fetch each order at `orderURL`, process it, acknowledge, repeat.
 *
 * Client rules it follows (SPEC Authentication 9, Errors, Events):
 * - one token per credential, shared by every worker, renewed before expiry with a margin;
 * - `401` without body: renew the token once and repeat the call; `401 invalid_token` /
 *   `invalid_client`: the credential was paused or revoked, stop;
 * - retry only `429`, `5xx` (`500 internal_error`, `503 service_unavailable`), timeouts and network
 *   errors, exponential backoff with full jitter, never sooner than `Retry-After`; never retry
 *   other `4xx`;
 * - at-least-once delivery: deduplicate by `eventId`; acknowledge only after processing;
 * - unknown `eventType`: log it and still acknowledge it.
 * Only the global `fetch` of Node 20 is used: copy this file into any project.
 */

export const KNOWN_EVENT_TYPES = new Set([
  'CREATED',
  'CONFIRMED',
  'READY_FOR_PICKUP',
  'DISPATCHED',
  'CONCLUDED',
  'CANCELLED',
  'PREPARING',
  'MODIFIED',
  'COURIER_ASSIGNED',
  'COURIER_ROUTE_STARTED',
  'COURIER_PICKED_UP',
  'COURIER_ARRIVED',
  'COURIER_DELIVERED',
  'COURIER_DELIVERY_FAILED',
  'COURIER_UNASSIGNED',
  'COURIER_ROUTE_COMPLETED',
]);

export interface EventEnvelope {
  eventId: string;
  eventType: string;
  orderId: string;
  orderURL: string;
  createdAt: string;
  sourceAppId?: string;
  metadata?: Record<string, unknown>;
}

export type Log = (
  level: 'debug' | 'info' | 'warn' | 'error',
  msg: string,
  data?: Record<string, unknown>,
) => void;

/** The credential was paused or revoked (or its secret is wrong): stop, a human must act. */
export class CredentialRejectedError extends Error {
  constructor(readonly code: string) {
    super(`credential rejected: ${code}`);
  }
}
/** A request that must not be repeated (400, 403, 404, 409, 422...). */
export class PermanentError extends Error {
  constructor(
    readonly status: number,
    readonly body: string,
  ) {
    super(`HTTP ${status}`);
  }
}
class RetryableError extends Error {
  constructor(
    message: string,
    readonly retryAfterMs?: number,
  ) {
    super(message);
  }
}

export interface Backoff {
  baseMs: number;
  maxMs: number;
  /** attempts of one call before giving up (the poll loop then backs off itself) */
  attempts: number;
}

/** Full-jitter exponential backoff, never below the server's Retry-After. */
export function backoffDelay(attempt: number, b: Backoff, retryAfterMs = 0, random = Math.random): number {
  const exp = Math.min(b.maxMs, b.baseMs * 2 ** attempt);
  return Math.max(retryAfterMs, Math.round(exp / 2 + (random() * exp) / 2));
}

function retryAfterMs(res: Response): number | undefined {
  const h = res.headers.get('retry-after');
  if (!h) return undefined;
  const s = Number(h);
  if (Number.isFinite(s)) return Math.max(0, s * 1000);
  const d = Date.parse(h);
  return Number.isNaN(d) ? undefined : Math.max(0, d - Date.now());
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    if (signal?.aborted) return resolve();
    const t = setTimeout(resolve, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(t);
        resolve();
      },
      { once: true },
    );
  });

/** Where tokens come from: the token endpoint (default) or anything else (tests, a vault...). */
export type TokenFetcher = () => Promise<{ accessToken: string; expiresIn: number }>;

/** POST {baseUrl}/oauth/token, form-encoded (the canonical form). */
export function tokenEndpoint(
  baseUrl: string,
  clientId: string,
  clientSecret: string,
  opts: { fetch?: typeof fetch; timeoutMs?: number } = {},
): TokenFetcher {
  const f = opts.fetch ?? fetch;
  return async () => {
    let res: Response;
    try {
      res = await f(`${baseUrl}/oauth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'client_credentials',
          client_id: clientId,
          client_secret: clientSecret,
        }).toString(),
        signal: AbortSignal.timeout(opts.timeoutMs ?? 10_000),
      });
    } catch (e) {
      throw new RetryableError(`token endpoint unreachable: ${(e as Error).message}`);
    }
    const text = await res.text();
    if (res.status === 200) {
      const b = JSON.parse(text) as { access_token: string; expires_in: number };
      return { accessToken: b.access_token, expiresIn: b.expires_in };
    }
    if (res.status === 429 || res.status >= 500)
      throw new RetryableError(`token endpoint ${res.status}`, retryAfterMs(res));
    if (res.status === 401) throw new CredentialRejectedError(safeError(text) ?? 'invalid_client');
    throw new PermanentError(res.status, text);
  };
}

const safeError = (text: string): string | undefined => {
  try {
    const e = (JSON.parse(text) as { error?: unknown }).error;
    return typeof e === 'string' ? e : undefined;
  } catch {
    return undefined;
  }
};

/**
 * One token per credential shared by every caller: renewed `marginMs` before expiry, one renewal
 * at a time (concurrent callers wait for the same one), forced renewal after a bodiless 401.
 */
export class TokenManager {
  private current?: { token: string; renewAt: number };
  private inflight?: Promise<string>;
  constructor(
    private readonly fetchToken: TokenFetcher,
    private readonly opts: { marginMs?: number; backoff?: Backoff; log?: Log; now?: () => number } = {},
  ) {}

  async get(): Promise<string> {
    const now = (this.opts.now ?? Date.now)();
    if (this.current && now < this.current.renewAt) return this.current.token;
    return this.renew();
  }

  /** Forget `token` (the server refused it); the next get() fetches a new one. */
  invalidate(token: string): void {
    if (this.current?.token === token) this.current = undefined;
  }

  private renew(): Promise<string> {
    this.inflight ??= (async () => {
      const b = this.opts.backoff ?? { baseMs: 500, maxMs: 60_000, attempts: 8 };
      for (let attempt = 0; ; attempt++) {
        try {
          const t = await this.fetchToken();
          const margin = Math.min(this.opts.marginMs ?? 300_000, (t.expiresIn * 1000) / 2);
          this.current = {
            token: t.accessToken,
            renewAt: (this.opts.now ?? Date.now)() + t.expiresIn * 1000 - margin,
          };
          this.opts.log?.('debug', 'token renewed', { expiresIn: t.expiresIn });
          return t.accessToken;
        } catch (e) {
          if (!(e instanceof RetryableError) || attempt + 1 >= b.attempts) throw e;
          const wait = backoffDelay(attempt, b, e.retryAfterMs);
          this.opts.log?.('warn', 'token request failed, retrying', { error: e.message, waitMs: wait });
          await sleep(wait);
        }
      }
    })().finally(() => {
      this.inflight = undefined;
    });
    return this.inflight;
  }
}

export interface IntegratorOptions {
  /** e.g. https://api.example.com (no trailing slash) */
  baseUrl: string;
  tokens: TokenManager;
  /** processes one order; throwing leaves the event unacknowledged (it comes back next poll) */
  handle(order: unknown, event: EventEnvelope): Promise<void>;
  log?: Log;
  fetch?: typeof fetch;
  /** events per poll (1..200) */
  limit?: number;
  /** wait after an empty poll */
  idleMs?: number;
  backoff?: Backoff;
  timeoutMs?: number;
  /** how many processed eventIds to remember for deduplication */
  dedupeSize?: number;
  /** maps `orderURL` before fetching it (e.g. a private network base URL); identity by default */
  resolveOrderUrl?: (url: string) => string;
}

export class Integrator {
  private readonly seen = new Map<string, true>();
  private readonly log: Log;
  private readonly f: typeof fetch;
  private readonly backoff: Backoff;
  constructor(private readonly o: IntegratorOptions) {
    this.log = o.log ?? (() => {});
    this.f = o.fetch ?? fetch;
    this.backoff = o.backoff ?? { baseMs: 500, maxMs: 60_000, attempts: 6 };
  }

  /**
   * One authenticated call with the client rules: renew once on a bodiless 401, stop on
   * invalid_token, back off on 429/5xx/network errors honouring Retry-After, never retry other 4xx.
   */
  async call(method: string, url: string, body?: unknown, signal?: AbortSignal): Promise<unknown> {
    let renewed = false;
    for (let attempt = 0; ; attempt++) {
      const token = await this.o.tokens.get();
      let res: Response;
      try {
        res = await this.f(url.startsWith('http') ? url : this.o.baseUrl + url, {
          method,
          headers: {
            authorization: `Bearer ${token}`,
            ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          },
          body: body === undefined ? undefined : JSON.stringify(body),
          signal: AbortSignal.timeout(this.o.timeoutMs ?? 15_000),
        });
      } catch (e) {
        if (attempt + 1 >= this.backoff.attempts)
          throw new RetryableError(`network: ${(e as Error).message}`);
        const wait = backoffDelay(attempt, this.backoff);
        this.log('warn', 'network error, retrying', { url, error: (e as Error).message, waitMs: wait });
        await sleep(wait, signal);
        continue;
      }
      const text = await res.text();
      if (res.status < 300) return text ? JSON.parse(text) : undefined;
      if (res.status === 401) {
        const code = safeError(text);
        if (code) throw new CredentialRejectedError(code); // invalid_token: paused or revoked
        if (renewed) throw new CredentialRejectedError('unauthenticated');
        renewed = true;
        this.o.tokens.invalidate(token);
        this.log('info', '401 without body: renewing the token once');
        continue;
      }
      if (res.status === 429 || res.status >= 500) {
        if (attempt + 1 >= this.backoff.attempts)
          throw new RetryableError(`HTTP ${res.status}`, retryAfterMs(res));
        const wait = backoffDelay(attempt, this.backoff, retryAfterMs(res));
        this.log('warn', 'retryable answer, backing off', { url, status: res.status, waitMs: wait });
        await sleep(wait, signal);
        continue;
      }
      throw new PermanentError(res.status, text);
    }
  }

  private remember(id: string) {
    this.seen.set(id, true);
    const max = this.o.dedupeSize ?? 10_000;
    if (this.seen.size > max) this.seen.delete(this.seen.keys().next().value as string);
  }

  /**
   * One cycle: poll, process new events in order, acknowledge what was processed (and duplicates,
   * and unknown types). Returns how many events the poll returned.
   */
  async cycle(signal?: AbortSignal): Promise<{ polled: number; processed: number; acknowledged: number }> {
    const events = (await this.call(
      'GET',
      `/v1/events:polling?limit=${this.o.limit ?? 100}`,
      undefined,
      signal,
    )) as EventEnvelope[];
    const done: string[] = [];
    let processed = 0;
    for (const e of events) {
      if (this.seen.has(e.eventId)) {
        done.push(e.eventId); // processed before, its acknowledgment was lost: ack again
        continue;
      }
      if (!KNOWN_EVENT_TYPES.has(e.eventType)) {
        this.log('warn', 'unknown eventType ignored (acknowledged)', {
          eventType: e.eventType,
          eventId: e.eventId,
        });
        done.push(e.eventId);
        this.remember(e.eventId);
        continue;
      }
      try {
        const url = (this.o.resolveOrderUrl ?? ((u) => u))(e.orderURL);
        let order: unknown = null;
        try {
          order = await this.call('GET', url, undefined, signal);
        } catch (err) {
          // 404: the order is gone for this credential; nothing will ever change that
          if (!(err instanceof PermanentError && err.status === 404)) throw err;
          this.log('warn', 'order not found, event acknowledged', { eventId: e.eventId, orderId: e.orderId });
        }
        if (order !== null) await this.o.handle(order, e);
        processed++;
        this.remember(e.eventId);
        done.push(e.eventId);
      } catch (err) {
        if (err instanceof CredentialRejectedError) throw err;
        // later events of the batch may depend on this one: stop here, they all come back
        this.log('error', 'processing failed; event left unacknowledged', {
          eventId: e.eventId,
          error: (err as Error).message,
        });
        break;
      }
    }
    let acknowledged = 0;
    if (done.length) {
      const r = (await this.call(
        'POST',
        '/v1/events/acknowledgment',
        done.map((id) => ({ id })),
        signal,
      )) as {
        acknowledged: number;
      };
      acknowledged = r.acknowledged;
    }
    return { polled: events.length, processed, acknowledged };
  }

  /** Polls until `signal` aborts or the credential is rejected (then throws CredentialRejectedError). */
  async run(signal: AbortSignal): Promise<void> {
    let failures = 0;
    while (!signal.aborted) {
      try {
        const r = await this.cycle(signal);
        failures = 0;
        if (r.polled < (this.o.limit ?? 100)) await sleep(this.o.idleMs ?? 5000, signal);
      } catch (e) {
        if (e instanceof CredentialRejectedError) {
          this.log('error', 'credential rejected: stopping', { code: e.code });
          throw e;
        }
        const wait = backoffDelay(failures++, this.backoff, e instanceof RetryableError ? e.retryAfterMs : 0);
        this.log('error', 'poll cycle failed, backing off', { error: (e as Error).message, waitMs: wait });
        await sleep(wait, signal);
      }
    }
  }
}
