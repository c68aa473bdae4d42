import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ackIds, splitPage } from './rules.ts';

describe('feed rules', () => {
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
  });
});
