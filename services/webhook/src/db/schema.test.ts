import path from 'node:path';
import { schemaAgreement } from '@od/testing';
import { describe, expect, it } from 'vitest';

describe('webhook database schema', () => {
  it('the migrations build exactly what the Prisma schema describes', async () => {
    const { expected, actual } = await schemaAgreement(path.resolve(import.meta.dirname, '../..'), 'webhook');
    expect(actual).toEqual(expected);
    expect(actual.some((c) => c.table === 'delivery' && c.column === 'next_attempt_at')).toBe(true);
  });
});
