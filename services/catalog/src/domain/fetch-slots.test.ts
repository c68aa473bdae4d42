import { describe, expect, it } from 'vitest';
import { FetchSlots } from './fetch-slots.ts';

describe('FetchSlots', () => {
  it('gives at most max slots, never waits, and a release frees one', () => {
    const s = new FetchSlots(2);
    expect([s.tryTake(), s.tryTake(), s.tryTake()]).toEqual([true, true, false]);
    expect(s.inFlight).toBe(2);
    s.release();
    expect(s.tryTake()).toBe(true);
    s.release();
    s.release();
    s.release();
    expect(s.inFlight).toBe(0);
  });
});
