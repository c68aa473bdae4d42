import v8 from 'node:v8';
import { describe, expect, it } from 'vitest';
import { IDLE_GC, shouldCollect, startIdleGc } from './idle-gc.ts';

const MB = 1024 * 1024;

describe('idle collection', () => {
  const after = { heapUsed: 20 * MB, heapTotal: 30 * MB };
  it('collects a quiet process whose heap grew since the last collection: garbage or pages held', () => {
    expect(shouldCollect(IDLE_GC, 0.001, { heapUsed: 30 * MB, heapTotal: 40 * MB }, after)).toBe(true);
    expect(shouldCollect(IDLE_GC, 0.01, { heapUsed: 22 * MB, heapTotal: 46 * MB }, after)).toBe(true);
  });
  it('leaves a busy process to V8, and a quiet one that has not grown alone', () => {
    expect(shouldCollect(IDLE_GC, 0.3, { heapUsed: 90 * MB, heapTotal: 120 * MB }, after)).toBe(false);
    expect(shouldCollect(IDLE_GC, 0.001, { heapUsed: 22 * MB, heapTotal: 34 * MB }, after)).toBe(false);
  });
});

describe('startIdleGc', () => {
  const newSpace = () =>
    v8.getHeapSpaceStatistics().find((x) => x.space_name === 'new_space')?.space_size ?? 0;
  // short-lived objects with a few survivors: V8 grows the young generation to its maximum
  const grow = () => {
    let keep: object[] = [];
    for (let i = 0; i < 3e6; i++) {
      const o = { i, s: `x${i}` };
      if (i % 50 === 0) keep.push(o);
      if (keep.length > 20_000) keep = [];
    }
    return newSpace();
  };
  const afterRun = async (policy: typeof IDLE_GC, firstMs: number) => {
    const stop = startIdleGc(policy, 50, firstMs);
    await new Promise((r) => setTimeout(r, 400));
    stop();
    return newSpace();
  };

  it('collects when its policy says so and hands the grown young generation back; not otherwise', async () => {
    const grown = grow();
    expect(await afterRun({ quietElu: 0, minGrowthBytes: 0 }, 10_000)).toBeGreaterThan(grown / 2);
    expect(await afterRun({ quietElu: 2, minGrowthBytes: 0 }, 10_000)).toBeLessThan(grown / 2);
  });
  it("collects the start's garbage once, whatever the policy", async () => {
    const grown = grow();
    expect(await afterRun({ quietElu: 0, minGrowthBytes: 0 }, 100)).toBeLessThan(grown / 2);
  });
});
