import { performance } from 'node:perf_hooks';
import v8 from 'node:v8';
import { runInNewContext } from 'node:vm';

/**
 * A full garbage collection when the process has gone quiet with garbage left behind (README
 * "Memory"). V8 collects the old generation when allocation pushes it to its limit, and an idle
 * process allocates nothing: what the start left (migrations read, schemas built) or a burst of load
 * left stays resident for as long as no new load comes.
 */
export interface IdleGcPolicy {
  /** event-loop utilisation (0-1) over the last period below which the process counts as quiet */
  quietElu: number;
  /** heap used above what the last collection left, in bytes, that is worth a collection */
  minGrowthBytes: number;
}

export const IDLE_GC: IdleGcPolicy = { quietElu: 0.02, minGrowthBytes: 8 * 1024 * 1024 };
export const IDLE_GC_EVERY_MS = 10_000;

/** Whether to collect now: quiet over the last period and the heap grew since the last collection. */
export function shouldCollect(
  p: IdleGcPolicy,
  s: { elu: number; heapUsed: number; heapAfterLastGc: number },
): boolean {
  return s.elu < p.quietElu && s.heapUsed - s.heapAfterLastGc >= p.minGrowthBytes;
}

/** `global.gc` without `--expose-gc` on the command line (the way node's own docs show). */
function fullGc(): () => void {
  v8.setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}

/**
 * Collects what the start left `firstMs` after it (call it once started: that garbage is certain),
 * then checks every `everyMs`. Returns a stop.
 */
export function startIdleGc(policy = IDLE_GC, everyMs = IDLE_GC_EVERY_MS, firstMs = 1000): () => void {
  const gc = fullGc();
  let heapAfterLastGc = 0;
  let last = performance.eventLoopUtilization();
  const first = setTimeout(() => {
    gc();
    heapAfterLastGc = process.memoryUsage().heapUsed;
  }, firstMs);
  first.unref();
  const timer = setInterval(() => {
    const now = performance.eventLoopUtilization();
    const elu = performance.eventLoopUtilization(now, last).utilization;
    last = now;
    const heapUsed = process.memoryUsage().heapUsed;
    if (!shouldCollect(policy, { elu, heapUsed, heapAfterLastGc })) return;
    gc();
    heapAfterLastGc = process.memoryUsage().heapUsed;
  }, everyMs);
  timer.unref();
  return () => {
    clearTimeout(first);
    clearInterval(timer);
  };
}
