import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ackIds, pollLimit, splitPage } from './rules.ts';

describe('feed rules', () => {
  it('accepts limit 1..200 (default 100) and nothing else', () => {
    expect(pollLimit(undefined)).toBe(100);
    expect(pollLimit('1')).toBe(1);
    expect(pollLimit(200)).toBe(200);
    for (const bad of ['0', '201', '-1', '1.5', 'abc', ' 5', 1.5, 0, 201, ['1'], {}])
      expect(pollLimit(bad)).toBeUndefined();
    fc.assert(
      fc.property(fc.integer(), (n) => {
        const r = pollLimit(String(n));
        return n >= 1 && n <= 200 ? r === n : r === undefined;
      }),
    );
  });
  it('splits a page by the types the caller keeps, in order', () => {
    const e = (eventType: string) => ({ eventId: randomUUID(), eventType });
    const page = [e('CREATED'), e('PREPARING'), e('CONFIRMED'), e('MODIFIED')];
    const r = splitPage(page, new Set(['CREATED', 'CONFIRMED']));
    expect(r.kept).toEqual([page[0], page[2]]);
    expect(r.left).toEqual([page[1].eventId, page[3].eventId]);
    expect(splitPage([], new Set())).toEqual({ kept: [], left: [] });
  });
  it('reads acknowledgment ids, deduplicated, case-insensitively', () => {
    const id = randomUUID();
    expect(ackIds([{ id }, { id: id.toUpperCase() }])).toEqual([id]);
    expect(ackIds([])).toEqual([]);
    expect(ackIds({ id })).toBeNull();
    expect(ackIds([{ id }, {}])).toBeNull();
    expect(ackIds([{ id: 'x' }])).toBeNull();
    expect(ackIds([null])).toBeNull();
  });
});
