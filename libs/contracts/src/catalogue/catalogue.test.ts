import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { errorFormOf } from '../op.ts';
import { RPC } from './mod.ts';

/** The op catalogue is where a request's checks live (parsed once by the bus layer's serve). */
describe('op schemas', () => {
  it('poll: limit an integer 1..200, default left to the handler', () => {
    const q = RPC.feed.poll.query;
    expect(q.safeParse({}).success).toBe(true);
    for (const ok of ['1', 200, '37']) expect(q.safeParse({ limit: ok }).success).toBe(true);
    for (const bad of ['0', '201', '-1', '1.5', 'abc', 1.5, 0, 201, {}])
      expect(q.safeParse({ limit: bad }).success, String(bad)).toBe(false);
    fc.assert(
      fc.property(fc.integer(), (n) => q.safeParse({ limit: String(n) }).success === (n >= 1 && n <= 200)),
    );
  });

  it('ack: a list of at most 1000 { id: GUID }', () => {
    const b = RPC.feed.ack.body;
    const id = randomUUID();
    expect(b.safeParse([{ id }, { id: id.toUpperCase() }]).success).toBe(true);
    for (const bad of [{ id }, [{ id }, {}], [{ id: 'x' }], [null], Array(1001).fill({ id })])
      expect(b.safeParse(bad).success).toBe(false);
  });

  it('action: an optional object, no control character in any key or string, code bounded', () => {
    const b = RPC.orders.action.body;
    for (const ok of [undefined, {}, { reason: 'x'.repeat(600) }, { reason: null, code: 'c', other: 1 }])
      expect(b.safeParse(ok).success, JSON.stringify(ok)).toBe(true);
    const issues = (v: unknown) => {
      const r = b.safeParse(v);
      return r.success ? [] : r.error.issues.map((i) => [i.path.join('.'), i.message]);
    };
    expect(issues(null)).toEqual([['', 'O corpo deve ser um objeto JSON.']]);
    expect(issues([1])).toEqual([['', 'O corpo deve ser um objeto JSON.']]);
    expect(issues({ reason: 'a\u0000' })).toContainEqual(['reason', 'caractere de controle não permitido']);
    expect(issues({ 'x\u0001': 'y' })).toContainEqual(['x\u0001', 'caractere de controle não permitido']);
    expect(issues({ n: [{ m: 'z\u007f' }] })).toContainEqual([
      'n.0.m',
      'caractere de controle não permitido',
    ]);
    expect(issues({ code: 'c'.repeat(101) })[0]?.[0]).toBe('code');
    expect(RPC.orders.adminAction.body.safeParse(null).success).toBe(true);
  });

  it('every op has an error form: public ops ValidationProblemDetails, the others the admin form', () => {
    for (const ops of Object.values(RPC))
      for (const op of Object.values(ops)) {
        const pub =
          op.callers === 'any' ||
          (op.callers as readonly string[]).some((c) => c === 'credential' || c === 'anonymous');
        expect(errorFormOf(op), `${op.service}.${op.name}`).toBe(pub ? 'problem' : 'admin');
      }
    expect(errorFormOf(RPC.orders.action)).toBe('problem');
    expect(errorFormOf(RPC.orders.adminAction)).toBe('admin');
  });
});
