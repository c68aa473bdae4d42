import { describe, expect, it } from 'vitest';
import { pollPage } from './poll-page.ts';

const env = (id: string, pad = 0) => {
  const t = JSON.stringify({ eventId: id, pad: 'é'.repeat(pad) });
  return [t, Buffer.byteLength(t)] as const;
};

const parsed = (page: Buffer) => JSON.parse(page.toString('utf8'));

describe('pollPage', () => {
  it('joins the stored texts into one JSON array, in order; [] when none', () => {
    const rows = [env('a'), env('b'), env('c')];
    expect(parsed(pollPage(rows, 1 << 20))).toEqual([
      { eventId: 'a', pad: '' },
      { eventId: 'b', pad: '' },
      { eventId: 'c', pad: '' },
    ]);
    expect(pollPage([], 1 << 20).toString()).toBe('[]');
  });

  it('stops before the first envelope that would cross the byte budget, counted in UTF-8 bytes', () => {
    const rows = [env('a', 100), env('b', 100), env('c', 100)];
    const one = rows[0][1];
    // exactly two envelopes, their separator and the brackets
    const two = 1 + one + 1 + rows[1][1] + 1;
    expect(Buffer.byteLength(pollPage(rows, two))).toBe(two);
    expect(parsed(pollPage(rows, two))).toHaveLength(2);
    expect(parsed(pollPage(rows, two - 1))).toHaveLength(1);
    // the characters are 2 bytes each: a budget in characters would let all three in
    expect(parsed(pollPage(rows, rows[0][0].length * 3 + 4))).toHaveLength(1);
  });

  it('always serves the first envelope, even over the budget', () => {
    expect(parsed(pollPage([env('a', 50), env('b')], 10))).toEqual([{ eventId: 'a', pad: 'é'.repeat(50) }]);
  });
});

describe('pollPage with a length PostgreSQL did not count as this text', () => {
  it('still joins the texts whole (no truncated or padded page)', () => {
    const [a, b] = [env('a', 3), env('b', 3)];
    for (const wrong of [a[1] - 1, a[1] + 1, a[1] - 3]) {
      const page = pollPage([[a[0], wrong], b], 1 << 20);
      expect(parsed(page)).toEqual([
        { eventId: 'a', pad: 'ééé' },
        { eventId: 'b', pad: 'ééé' },
      ]);
      expect(page.length).toBe(a[1] + b[1] + 3);
    }
  });
});
