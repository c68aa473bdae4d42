import path from 'node:path';
import { schemaAgreement } from '@od/testing';
import { describe, expect, it } from 'vitest';

describe('catalog schema', () => {
  it('the migrations build exactly the tables and columns of the Prisma schema', async () => {
    const { expected, actual } = await schemaAgreement(path.resolve(import.meta.dirname, '../..'), 'catalog');
    expect(expected.length).toBeGreaterThan(0);
    expect(actual).toEqual(expected);
  });
});
