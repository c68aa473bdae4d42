import { SITUATIONS } from '@od/contracts/browser';
import { describe, expect, it } from 'vitest';
import { COLUMNS } from './board-columns.ts';

describe('the orders board', () => {
  it('has exactly one column for every situation of the contracts', () => {
    const placed = COLUMNS.flatMap((c) => c.situations);
    expect([...placed].sort()).toEqual([...SITUATIONS].sort());
  });
});
