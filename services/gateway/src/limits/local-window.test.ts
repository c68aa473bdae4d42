import { describe, expect, it } from 'vitest';
import { createLocalWindow } from './local-window.ts';

const policy = { name: 'p', limit: 10, windowSeconds: 60 };

describe('local sliding-window fallback', () => {
  it('allows the limit in a minute, refuses the next, separate buckets per id', () => {
    let t = 1_000_000 * 60_000; // a window boundary
    const w = createLocalWindow(() => t);
    const d = Array.from({ length: 11 }, () => w.check(policy, 'a'));
    expect(d.filter((x) => x.allowed)).toHaveLength(10);
    expect(d[10]).toMatchObject({ allowed: false, remaining: 0 });
    expect(d[10].resetMicros).toBe(60_000_000);
    expect(w.check(policy, 'b').allowed).toBe(true);
    // half a window later the previous window still weighs half: no double burst at the boundary
    t += 90_000;
    const later = Array.from({ length: 10 }, () => w.check(policy, 'a'));
    expect(later.filter((x) => x.allowed)).toHaveLength(5);
    // two windows later everything is forgotten
    t += 120_000;
    expect(Array.from({ length: 10 }, () => w.check(policy, 'a')).every((x) => x.allowed)).toBe(true);
  });

  it('keeps at most maxBuckets buckets, dropping the least recently used', () => {
    const w = createLocalWindow(() => 0, 3);
    for (const id of ['a', 'b', 'c']) w.check(policy, id);
    w.check(policy, 'a');
    w.check(policy, 'd');
    expect(w.size()).toBe(3);
  });
});
