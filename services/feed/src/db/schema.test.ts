import path from 'node:path';
import { schemaAgreement } from '@od/testing';
import { describe, expect, it } from 'vitest';

describe('feed database schema', () => {
  it('the migrations build exactly what the Prisma schema describes', async () => {
    const { expected, actual } = await schemaAgreement(path.resolve(import.meta.dirname, '../..'), 'feed');
    expect(actual).toEqual(expected);
    expect(actual.some((c) => c.table === 'feed_entries' && c.column === 'acked_at')).toBe(true);
  });
});
