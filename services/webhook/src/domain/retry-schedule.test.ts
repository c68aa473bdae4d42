import { describe, expect, it } from 'vitest';
import { ATTEMPTS_PER_ROUND, RETRY_SCHEDULE_MS, retryDelayMs } from './retry-schedule.ts';

describe('webhook retry schedule', () => {
  it('retries 5, 10 and 20 s after each failure, four attempts in all', () => {
    expect(ATTEMPTS_PER_ROUND).toBe(4);
    expect([1, 2, 3].map((n) => retryDelayMs(n, 1))).toEqual([5_000, 10_000, 20_000]);
    expect(retryDelayMs(4, 1)).toBeNull();
    expect(retryDelayMs(0, 1)).toBeNull();
  });
  it('scales every wait and never goes below 1 ms', () => {
    expect(retryDelayMs(1, 0.1)).toBe(500);
    expect(retryDelayMs(3, 0.000001)).toBe(1);
  });
  it('sums to the documented ~35 s of retries per round', () => {
    expect(RETRY_SCHEDULE_MS.reduce((a: number, b) => a + b, 0)).toBe(35_000);
  });
});
