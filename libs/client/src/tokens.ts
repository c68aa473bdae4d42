import { apiError, OdNetworkError, readBody, retryAfterMs } from './errors.ts';
import { backoffMs, DEFAULT_RETRY, RETRYABLE_STATUSES, type RetryPolicy, sleep } from './retry.ts';

/** A bearer token and when it expires (epoch milliseconds). */
export interface StoredToken {
  accessToken: string;
  expiresAt: number;
  /** when to renew it (epoch milliseconds): expiry minus the margin */
  renewAt: number;
}

/**
 * Where tokens are shared. The default ({@link MemoryTokenStore}) shares them inside one process;
 * implement this over Redis, a database or a file to share one token between processes (the API
 * wants one token per credential, not one per worker). Keys hold no secret.
 */
export interface TokenStore {
  get(key: string): Promise<StoredToken | undefined>;
  set(key: string, token: StoredToken): Promise<void>;
  /**
   * Optional cross-process single flight: resolve `true` when this process may request a token
   * (the lock then expires by itself after `ttlMs`), `false` when another one is requesting it
   * (this one waits for the token to appear in the store). E.g. Redis `SET key 1 NX PX ttlMs`.
   */
  lock?(key: string, ttlMs: number): Promise<boolean>;
  unlock?(key: string): Promise<void>;
  /** Forget `accessToken` if it is still the stored one (the server refused it). */
  delete?(key: string, accessToken: string): Promise<void>;
}

/** The default store: one process, any number of clients sharing the instance. */
export class MemoryTokenStore implements TokenStore {
  private readonly tokens = new Map<string, StoredToken>();
  private readonly locks = new Map<string, number>();
  async get(key: string) {
    return this.tokens.get(key);
  }
  async set(key: string, token: StoredToken) {
    this.tokens.set(key, token);
  }
  async lock(key: string, ttlMs: number) {
    const until = this.locks.get(key);
    if (until !== undefined && until > Date.now()) return false;
    this.locks.set(key, Date.now() + ttlMs);
    return true;
  }
  async unlock(key: string) {
    this.locks.delete(key);
  }
  async delete(key: string, accessToken: string) {
    if (this.tokens.get(key)?.accessToken === accessToken) this.tokens.delete(key);
  }
}

export interface TokenManagerOptions {
  /** e.g. `https://api.example.com` */
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  /** renew this long before expiry (default 5 minutes; at most half the token's life) */
  marginMs?: number;
  store?: TokenStore;
  retry?: Partial<RetryPolicy>;
  /** per token request (default 10 s) */
  timeoutMs?: number;
  fetch?: typeof fetch;
  /** clock (tests) */
  now?: () => number;
}

const LOCK_TTL_MS = 30_000;
const LOCK_POLL_MS = 100;

/**
 * One token per credential, shared by every caller: renewed `marginMs` before expiry, one token
 * request at a time (single flight in this process, and across processes through the store's
 * optional lock), `429` / `5xx` / network errors of the token endpoint retried with backoff and
 * never sooner than `Retry-After`. `401 invalid_client` (unknown credential, wrong secret, paused or
 * revoked) throws an {@link OdAuthError} at once: a person must act.
 */
export class TokenManager {
  private local?: StoredToken;
  private inflight?: Promise<string>;
  private readonly store: TokenStore;
  private readonly key: string;
  private readonly policy: RetryPolicy;
  private readonly now: () => number;
  /** token requests this manager sent (observability, tests) */
  requests = 0;

  constructor(private readonly o: TokenManagerOptions) {
    this.store = o.store ?? new MemoryTokenStore();
    this.key = `od-token:${o.baseUrl.replace(/\/+$/, '')}:${o.clientId}`;
    this.policy = { ...DEFAULT_RETRY, ...o.retry };
    this.now = o.now ?? Date.now;
  }

  /** A token valid for at least the margin. */
  async get(): Promise<string> {
    if (this.local && this.fresh(this.local)) return this.local.accessToken;
    this.inflight ??= this.obtain().finally(() => {
      this.inflight = undefined;
    });
    return this.inflight;
  }

  /** Forget `token` (the server answered 401 to it): the next {@link get} fetches another. */
  async invalidate(token: string): Promise<void> {
    if (this.local?.accessToken === token) this.local = undefined;
    await this.store.delete?.(this.key, token);
  }

  private fresh(t: StoredToken): boolean {
    return this.now() < t.renewAt;
  }

  private async obtain(): Promise<string> {
    const giveUpWaitingAt = this.now() + LOCK_TTL_MS;
    for (;;) {
      const shared = await this.store.get(this.key);
      if (shared && this.fresh(shared)) {
        this.local = shared;
        return shared.accessToken;
      }
      const mine = !this.store.lock || (await this.store.lock(this.key, LOCK_TTL_MS));
      if (mine || this.now() >= giveUpWaitingAt) {
        try {
          const again = mine ? await this.store.get(this.key) : undefined;
          if (again && this.fresh(again)) {
            this.local = again;
            return again.accessToken;
          }
          const t = await this.request();
          await this.store.set(this.key, t);
          this.local = t;
          return t.accessToken;
        } finally {
          if (mine) await this.store.unlock?.(this.key);
        }
      }
      await sleep(LOCK_POLL_MS); // another process is asking for it
    }
  }

  /** POST /oauth/token (form body, the canonical form) with the retry policy. */
  private async request(): Promise<StoredToken> {
    const f = this.o.fetch ?? fetch;
    for (let attempt = 0; ; attempt++) {
      const last = attempt + 1 >= this.policy.attempts;
      let res: Response;
      try {
        this.requests++;
        res = await f(`${this.o.baseUrl.replace(/\/+$/, '')}/oauth/token`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
          body: new URLSearchParams({
            grant_type: 'client_credentials',
            client_id: this.o.clientId,
            client_secret: this.o.clientSecret,
          }).toString(),
          signal: AbortSignal.timeout(this.o.timeoutMs ?? 10_000),
        });
      } catch (e) {
        if (last)
          throw new OdNetworkError(`token endpoint unreachable: ${(e as Error).message}`, { cause: e });
        await sleep(backoffMs(attempt, this.policy));
        continue;
      }
      if (res.status === 200) {
        const b = (await res.json()) as { access_token?: string; expires_in?: number };
        if (typeof b.access_token !== 'string') throw apiError(502, b, res.headers);
        const life = (b.expires_in ?? 3600) * 1000;
        // a margin never above half the token's life, so a short-lived token is still used
        const margin = Math.min(this.o.marginMs ?? 300_000, life / 2);
        const now = this.now();
        return { accessToken: b.access_token, expiresAt: now + life, renewAt: now + life - margin };
      }
      const wait = retryAfterMs(res.headers);
      if (RETRYABLE_STATUSES.has(res.status) && !last && (wait ?? 0) <= this.policy.maxRetryAfterMs) {
        await res.body?.cancel();
        await sleep(backoffMs(attempt, this.policy, wait));
        continue;
      }
      throw apiError(res.status, await readBody(res), res.headers);
    }
  }
}
