import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { fieldErrorsFromIssues } from './field-errors.ts';

const fieldsOf = (schema: z.ZodType, value: unknown) => {
  const r = schema.safeParse(value);
  if (r.success) throw new Error('expected a failure');
  return fieldErrorsFromIssues(r.error.issues);
};

describe('fieldErrorsFromIssues', () => {
  it('names each field by its path, `$` for the value itself', () => {
    const schema = z.object({ items: z.array(z.object({ price: z.number().max(5) })) });
    expect(Object.keys(fieldsOf(schema, { items: [{ price: 1 }, { price: 9 }] }))).toEqual([
      'items[1].price',
    ]);
    expect(Object.keys(fieldsOf(schema, 'x'))).toEqual(['$']);
  });

  it('reports the closest branch of a union none of whose branches matched, not "Invalid input"', () => {
    const item = z.union([
      z.object({ ref: z.string() }),
      z.object({ name: z.string().max(3), price: z.number() }),
    ]);
    const fields = fieldsOf(z.object({ items: z.array(item) }), { items: [{ name: 'too long', price: 1 }] });
    expect(Object.keys(fields)).toEqual(['items[0].name']);
    expect(fields['items[0].name'][0]).toMatch(/3/);
  });
});
