import path from 'node:path';
import { schemaAgreement } from '@od/testing';
import { describe, expect, it } from 'vitest';

describe('panel schema', () => {
  it('the migrations build exactly the tables and columns of the Prisma schema', async () => {
    const { expected, actual } = await schemaAgreement(path.resolve(import.meta.dirname, '../..'), 'panel');
    expect(expected.length).toBeGreaterThan(0);
    expect(actual).toEqual(expected);
  });
});
