import path from 'node:path';
import { schemaAgreement } from '@od/testing';
import { describe, expect, it } from 'vitest';

describe('auth database schema', () => {
  it('the migrations build exactly what the Prisma schema describes', async () => {
    const { expected, actual } = await schemaAgreement(path.resolve(import.meta.dirname, '../..'), 'auth');
    expect(actual).toEqual(expected);
    expect(actual.some((c) => c.table === 'credential' && c.column === 'secret_hash')).toBe(true);
  });
});
