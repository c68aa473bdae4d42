import { describe, expect, it } from 'vitest';
import { historyPageLength } from './limits.ts';

describe('history pages of the admin order view', () => {
  it('stops at the entry limit', () => {
    expect(historyPageLength([10, 10, 10, 10], 1000, 3)).toBe(3);
  });
  it('stops before the entry that would cross the byte budget (separators counted)', () => {
    expect(historyPageLength([10, 10, 10], 22, 100)).toBe(2);
    expect(historyPageLength([10, 10, 10], 21, 100)).toBe(1);
  });
  it('always takes one entry, even over the budget; none when there are none', () => {
    expect(historyPageLength([5000, 1], 100, 100)).toBe(1);
    expect(historyPageLength([], 100, 100)).toBe(0);
  });
});
