import { names } from '@od/contracts';
import type { Logger } from '@od/logger';
import { recordRateLimit, recordRateLimitFallback } from '@od/telemetry';
import type { Redis, Result } from 'ioredis';
import { createLocalWindow } from './local-window.ts';
import type { Policy } from './policy.ts';
import { SLIDING_LOG_LUA } from './sliding-log.ts';
import { writeWithTurn } from './write-per-turn.ts';

/**
 * Rate limits of SPEC's Limits table, exact across any number of gateway replicas.
 *
 * Algorithm: a sliding log per bucket (Redis sorted set of accepted-request timestamps), checked and
 * updated by one Lua script = ONE Redis round trip per check, with the time read inside Redis
 * (`TIME`), so gateway clocks never matter. "N per minute" holds for EVERY 60-second window (no
 * fixed-window double burst, no leaky-bucket refill inside the minute): the N+1st request inside any
 * minute is refused. Refused requests are not logged, so a client hammering a closed bucket gets its
 * quota back 60 s after its oldest accepted call.
 *
 * Redis unreachable or slow (> REDIS_TIMEOUT_MS): the limits still hold, approximately. The check
 * falls back to this replica's own in-process count (local-window.ts: same limits, same headers, a
 * 429 when over), logs an error at most once a second and counts it in `stats().fallback`. SPEC's
 * limits are a promise: neither failing open (unlimited while Redis is down) nor failing closed (an
 * outage of every route for a cache's outage). With R replicas a client may get up to R times a
 * limit until Redis answers again.
 */
export interface LimitDecision {
  allowed: boolean;
  /** headers to add to the response (IETF RateLimit-Policy / RateLimit) */
  headers: Record<string, string>;
}

export interface LimiterStats {
  /** checks decided by the replica's local fallback because Redis could not be asked */
  fallback: number;
  /** checks refused (429) */
  refused: number;
}

export interface Limiter {
  /** 600 authenticated calls per minute per credential */
  credential(clientId: string): Promise<LimitDecision>;
  /** 60 token requests per minute per client IP */
  tokenIp(ip: string): Promise<LimitDecision>;
  /** called on a failed authentication (401 invalid_client) at the token endpoint; 10 per minute */
  authFailure(clientId: string): Promise<LimitDecision>;
  /** counters since start (fail-open events, refusals) */
  stats(): LimiterStats;
}

export type { Policy } from './policy.ts';

export const POLICIES = {
  credential: { name: 'credential', limit: 600, windowSeconds: 60 },
  tokenIp: { name: 'token-ip', limit: 60, windowSeconds: 60 },
  authFailure: { name: 'auth-failure', limit: 10, windowSeconds: 60 },
} as const satisfies Record<string, Policy>;

/** Bound on one limiter round trip before the local fallback decides. */
export const REDIS_TIMEOUT_MS = 500;

/** Result of the script: [allowed 0|1, remaining, microseconds until a slot frees (0 = now)]. */
export type ScriptResult = [number, number, number];

declare module 'ioredis' {
  interface RedisCommander<Context> {
    odSlidingLog(
      key: string,
      limit: number,
      windowMs: number,
      nowMicros?: number,
    ): Result<ScriptResult, Context>;
  }
}

/** Registers the script on a client (idempotent); ioredis uses EVALSHA with an EVAL fallback. */
export function defineLimiterScript(redis: Redis): void {
  if (typeof (redis as Partial<Redis>).odSlidingLog === 'function') return;
  redis.defineCommand('odSlidingLog', { numberOfKeys: 1, lua: SLIDING_LOG_LUA });
}

/** IETF draft-ietf-httpapi-ratelimit-headers: `RateLimit-Policy` and `RateLimit` fields. */
export function rateLimitHeaders(policy: Policy, remaining: number, resetMicros: number) {
  const t = Math.max(0, Math.ceil(resetMicros / 1_000_000));
  return {
    'RateLimit-Policy': `"${policy.name}";q=${policy.limit};w=${policy.windowSeconds}`,
    RateLimit: `"${policy.name}";r=${Math.max(0, remaining)};t=${t}`,
  };
}

/**
 * The bucket of a client address: IPv4 as is (IPv4-mapped IPv6 unwrapped); IPv6 by its /64 prefix,
 * since one subscriber usually holds a whole /64 and could otherwise rotate addresses at will.
 */
export function ipBucket(ip: string): string {
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(ip);
  if (mapped) return mapped[1];
  if (!ip.includes(':')) return ip;
  const [head, tail] = ip.split('%', 1)[0].split('::');
  const left = head ? head.split(':') : [];
  const right = tail === undefined ? [] : tail ? tail.split(':') : [];
  const groups =
    tail === undefined
      ? left
      : [...left, ...Array(Math.max(0, 8 - left.length - right.length)).fill('0'), ...right];
  return `${groups
    .slice(0, 4)
    .map((g) => (Number.parseInt(g || '0', 16) || 0).toString(16))
    .join(':')}::/64`;
}

const ALLOW_SILENTLY: LimitDecision = Object.freeze({
  allowed: true,
  headers: Object.freeze({}),
}) as LimitDecision;

export function createLimiter(redis: Redis, prefix: string, enabled: boolean, log?: Logger): Limiter {
  const counters: LimiterStats = { fallback: 0, refused: 0 };
  const local = createLocalWindow();
  let lastLogAt = 0;
  const stats = () => ({ ...counters });
  if (!enabled) {
    const allow = async () => ALLOW_SILENTLY;
    return { credential: allow, tokenIp: allow, authFailure: allow, stats };
  }
  defineLimiterScript(redis);
  const n = names(prefix);
  const key = (policy: Policy, id: string) => n.redis(`rl:${policy.name}:${id}`);

  // a client whose own command timeout is within the bound (the gateway's) needs no timer of the
  // limiter's: a race, a promise and a timer per check were ~1 KB of each request's garbage
  const clientTimeout = redis.options.commandTimeout;
  const bounded = clientTimeout !== undefined && clientTimeout > 0 && clientTimeout <= REDIS_TIMEOUT_MS;

  async function check(policy: Policy, id: string): Promise<LimitDecision> {
    let timer: NodeJS.Timeout | undefined;
    try {
      writeWithTurn(redis);
      const script = redis.odSlidingLog(key(policy, id), policy.limit, policy.windowSeconds * 1000);
      const r = bounded
        ? await script
        : await Promise.race([
            script,
            new Promise<never>((_, reject) => {
              timer = setTimeout(
                () => reject(new Error(`redis timeout after ${REDIS_TIMEOUT_MS} ms`)),
                REDIS_TIMEOUT_MS,
              );
            }),
          ]);
      const allowed = r[0] === 1;
      if (!allowed) counters.refused++;
      recordRateLimit(policy.name, allowed);
      return { allowed, headers: rateLimitHeaders(policy, r[1], r[2]) };
    } catch (e) {
      counters.fallback++;
      recordRateLimitFallback(policy.name);
      // every failure is counted; the log says so at most once per second (no flood while Redis is down)
      const now = Date.now();
      if (now - lastLogAt >= 1000) {
        lastLogAt = now;
        log?.error(
          { err: (e as Error).message, policy: policy.name, fallback: counters.fallback },
          'rate limiter unavailable: limits counted by this replica alone',
        );
      }
      const d = local.check(policy, id);
      if (!d.allowed) counters.refused++;
      recordRateLimit(policy.name, d.allowed);
      return { allowed: d.allowed, headers: rateLimitHeaders(policy, d.remaining, d.resetMicros) };
    } finally {
      clearTimeout(timer);
    }
  }

  return {
    credential: (clientId) => check(POLICIES.credential, clientId),
    tokenIp: (ip) => check(POLICIES.tokenIp, ipBucket(ip)),
    authFailure: (clientId) => check(POLICIES.authFailure, clientId),
    stats,
  };
}
