import { describe, expect, it } from 'vitest';
import { Busy, workLimit } from './work-limit.ts';

const gate = () => {
  let open!: () => void;
  const p = new Promise<void>((r) => {
    open = r;
  });
  return { p, open };
};

describe('work limit', () => {
  it('runs `active` at once, queues `queued`, refuses the rest immediately, in order', async () => {
    const w = workLimit(2, 1);
    const g = gate();
    const order: number[] = [];
    const task = (i: number) => () => g.p.then(() => order.push(i));
    const a = w.run(task(1));
    const b = w.run(task(2));
    const c = w.run(task(3));
    expect(w.load()).toEqual({ active: 2, queued: 1 });
    await expect(w.run(task(4))).rejects.toBeInstanceOf(Busy);
    g.open();
    await Promise.all([a, b, c]);
    expect(order).toEqual([1, 2, 3]);
    expect(w.load()).toEqual({ active: 0, queued: 0 });
  });

  it('a failing task frees its slot', async () => {
    const w = workLimit(1, 0);
    await expect(w.run(() => Promise.reject(new Error('x')))).rejects.toThrow('x');
    expect(await w.run(async () => 5)).toBe(5);
  });
});
