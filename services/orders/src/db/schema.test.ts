import path from 'node:path';
import { schemaAgreement } from '@od/testing';
import { expect, it } from 'vitest';

it('the Prisma schema and the SQL migrations describe the same columns', async () => {
  const { expected, actual } = await schemaAgreement(path.resolve(import.meta.dirname, '../..'), 'orders');
  expect(actual).toEqual(expected);
});
