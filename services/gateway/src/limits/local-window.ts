import type { Policy } from './policy.ts';

/** Buckets a replica keeps while Redis cannot be asked (least recently used dropped beyond). */
export const LOCAL_MAX_BUCKETS = 50_000;

interface Bucket {
  /** start of the current fixed window (ms) */
  start: number;
  current: number;
  previous: number;
}

export interface LocalDecision {
  allowed: boolean;
  remaining: number;
  /** microseconds until the estimate drops below the limit (0 = now) */
  resetMicros: number;
}

/**
 * The limiter's fallback while Redis is down or slow: one replica's own count, a sliding-window
 * counter per bucket (the previous fixed window weighted by how much of it still overlaps the
 * sliding one, plus the current window). O(1) memory per bucket and at most LOCAL_MAX_BUCKETS
 * buckets. Approximate by design: each replica counts only what it served, so with R replicas a
 * client can get up to R times the limit until Redis answers again; a client on one replica gets
 * the limit (the weighting may refuse a few requests early, never let more through).
 */
export function createLocalWindow(now: () => number = Date.now, maxBuckets = LOCAL_MAX_BUCKETS) {
  const buckets = new Map<string, Bucket>();
  return {
    check(policy: Policy, id: string): LocalDecision {
      const w = policy.windowSeconds * 1000;
      const t = now();
      const key = `${policy.name}:${id}`;
      let b = buckets.get(key);
      if (b)
        buckets.delete(key); // re-inserted below: Map order = least recently used first
      else b = { start: t - (t % w), current: 0, previous: 0 };
      if (t - b.start >= 2 * w) b = { start: t - (t % w), current: 0, previous: 0 };
      else if (t - b.start >= w) b = { start: b.start + w, current: 0, previous: b.current };
      buckets.set(key, b);
      if (buckets.size > maxBuckets) buckets.delete(buckets.keys().next().value as string);
      const overlap = 1 - (t - b.start) / w;
      const estimate = b.previous * overlap + b.current;
      if (estimate + 1 > policy.limit) {
        // the previous window's weight fades linearly; with none left, the current window's end
        const needed = estimate + 1 - policy.limit;
        const ms =
          b.previous > 0 && needed <= b.previous * overlap ? (needed / b.previous) * w : b.start + w - t;
        return { allowed: false, remaining: 0, resetMicros: Math.ceil(ms * 1000) };
      }
      b.current++;
      return { allowed: true, remaining: Math.floor(policy.limit - estimate - 1), resetMicros: 0 };
    },
    size: () => buckets.size,
  };
}
