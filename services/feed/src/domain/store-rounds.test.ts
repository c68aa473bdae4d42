import { describe, expect, it } from 'vitest';
import { storeRounds } from './store-rounds.ts';

const ev = (eventId: string, orderId: string) => ({ eventId, orderId });

describe('storeRounds', () => {
  it('stores events of distinct orders in one round, in batch order', () => {
    expect(storeRounds([ev('a1', 'A'), ev('b1', 'B'), ev('c1', 'C')])).toEqual([
      [ev('a1', 'A'), ev('b1', 'B'), ev('c1', 'C')],
    ]);
  });

  it("puts an order's later events in later rounds", () => {
    expect(storeRounds([ev('a1', 'A'), ev('a2', 'A'), ev('b1', 'B'), ev('a3', 'A'), ev('b2', 'B')])).toEqual([
      [ev('a1', 'A'), ev('b1', 'B')],
      [ev('a2', 'A'), ev('b2', 'B')],
      [ev('a3', 'A')],
    ]);
  });

  it('keeps a message delivered twice in one batch once', () => {
    expect(storeRounds([ev('a1', 'A'), ev('a1', 'A'), ev('b1', 'B')])).toEqual([
      [ev('a1', 'A'), ev('b1', 'B')],
    ]);
  });

  it('gives no round for no events', () => {
    expect(storeRounds([])).toEqual([]);
  });
});
