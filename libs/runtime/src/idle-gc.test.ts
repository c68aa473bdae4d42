import { describe, expect, it } from 'vitest';
import { IDLE_GC, shouldCollect, startIdleGc } from './idle-gc.ts';

const MB = 1024 * 1024;

describe('idle collection', () => {
  it('collects a quiet process whose heap grew since the last collection', () => {
    expect(shouldCollect(IDLE_GC, { elu: 0.001, heapUsed: 30 * MB, heapAfterLastGc: 0 })).toBe(true);
    expect(shouldCollect(IDLE_GC, { elu: 0.01, heapUsed: 30 * MB, heapAfterLastGc: 20 * MB })).toBe(true);
  });
  it('leaves a busy process to V8, and a quiet one with little new garbage alone', () => {
    expect(shouldCollect(IDLE_GC, { elu: 0.3, heapUsed: 90 * MB, heapAfterLastGc: 20 * MB })).toBe(false);
    expect(shouldCollect(IDLE_GC, { elu: 0.001, heapUsed: 22 * MB, heapAfterLastGc: 20 * MB })).toBe(false);
  });
});

describe('startIdleGc', () => {
  // forced major collections seen by a gc observer (node marks the ones gc() asks for as forced)
  const forcedMajors = async (policy: typeof IDLE_GC, firstMs = 10_000) => {
    const { constants, PerformanceObserver } = await import('node:perf_hooks');
    let n = 0;
    const obs = new PerformanceObserver((list) => {
      for (const e of list.getEntries()) {
        const d = (e as unknown as { detail: { kind: number; flags: number } }).detail;
        if (
          d.kind === constants.NODE_PERFORMANCE_GC_MAJOR &&
          d.flags & constants.NODE_PERFORMANCE_GC_FLAGS_FORCED
        )
          n++;
      }
    });
    obs.observe({ entryTypes: ['gc'] });
    const stop = startIdleGc(policy, 50, firstMs);
    await new Promise((r) => setTimeout(r, 400));
    stop();
    await new Promise((r) => setTimeout(r, 50));
    obs.disconnect();
    return n;
  };
  it('runs a full collection when its policy says so, and none otherwise', async () => {
    expect(await forcedMajors({ quietElu: 2, minGrowthBytes: 0 })).toBeGreaterThan(0);
    expect(await forcedMajors({ quietElu: 0, minGrowthBytes: 0 })).toBe(0);
  });
  it("collects the start's garbage once, whatever the policy", async () => {
    expect(await forcedMajors({ quietElu: 0, minGrowthBytes: 0 }, 100)).toBe(1);
  });
});
