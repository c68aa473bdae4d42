import { describe, expect, it } from 'vitest';
import { decodeCursor, encodeCursor, pageBody, resolveRange } from './history.ts';

const id = '0b6f8f0e-4a53-4a8e-9a4b-0c4f2b7d9e11';
const at = '2026-11-24T13:14:15.123Z';

describe('history paging (pure)', () => {
  it('a cursor round-trips and anything else is refused', () => {
    const c = encodeCursor({ at, id });
    expect(decodeCursor(c)).toEqual({ at, id });
    expect(decodeCursor(encodeCursor({ at, id: id.toUpperCase() }))).toEqual({ at, id });
    for (const bad of [
      '',
      'x'.repeat(200),
      `${c}=`,
      c.slice(0, -1),
      `${c}A`,
      Buffer.from(`v2|${at}|${id}`).toString('base64url'),
      Buffer.from(`v1|2026-11-24T13:14:15Z|${id}`).toString('base64url'),
      Buffer.from(`v1|2026-02-30T13:14:15.123Z|${id}`).toString('base64url'),
      Buffer.from(`v1|${at}|${id.toUpperCase()}`).toString('base64url'),
      Buffer.from(`v1|${at}|not-a-guid`).toString('base64url'),
      Buffer.from(`v1|${at}|${id}|x`).toString('base64url'),
      42,
    ])
      expect(decodeCursor(bad), String(bad)).toBeUndefined();
  });

  it('resolves the range: defaults, order, width, retention', () => {
    const now = new Date('2026-11-25T12:00:00Z');
    expect(resolveRange({}, now)).toEqual({ from: new Date('2026-11-24T12:00:00Z'), to: now });
    expect(resolveRange({ createdTo: '2026-11-20T00:00:00-03:00' }, now)).toEqual({
      from: new Date('2026-11-19T03:00:00Z'),
      to: new Date('2026-11-20T03:00:00Z'),
    });
    expect(
      resolveRange({ createdFrom: '2026-11-25T12:00:00Z', createdTo: '2026-11-25T12:00:00Z' }, now),
    ).toHaveProperty('errors.createdFrom');
    expect(
      resolveRange({ createdFrom: '2026-10-01T00:00:00Z', createdTo: '2026-11-01T00:00:00Z' }, now),
    ).toHaveProperty('from');
    expect(
      resolveRange({ createdFrom: '2026-10-01T00:00:00Z', createdTo: '2026-11-01T00:00:01Z' }, now),
    ).toHaveProperty('errors.createdFrom');
    expect(resolveRange({ createdFrom: '2026-10-26T11:59:59Z' }, now, { oldestDays: 30 })).toHaveProperty(
      'errors.createdFrom',
    );
    expect(resolveRange({ createdFrom: '2026-10-26T12:00:00Z' }, now, { oldestDays: 30 })).toHaveProperty(
      'from',
    );
  });

  it('a page holds `limit` rows and the cursor of its last one only when more exist', () => {
    const rows = [1, 2, 3].map((n) => ({ at, id: id.replace(/1$/, String(n)), j: `{"n":${n}}` }));
    expect(JSON.parse(pageBody('orders', rows, 3))).toEqual({
      orders: [{ n: 1 }, { n: 2 }, { n: 3 }],
      nextCursor: null,
    });
    const two = JSON.parse(pageBody('events', rows, 2));
    expect(two.events).toEqual([{ n: 1 }, { n: 2 }]);
    expect(decodeCursor(two.nextCursor)).toEqual({ at, id: rows[1].id });
    expect(JSON.parse(pageBody('orders', [], 2))).toEqual({ orders: [], nextCursor: null });
  });
});
