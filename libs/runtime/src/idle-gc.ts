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
  /**
   * growth since the last collection, in bytes, of the heap used (garbage) or of the heap V8 holds
   * (a young generation grown under load), that is worth a collection
   */
  minGrowthBytes: number;
}

/** Heap figures (process.memoryUsage): used, and what V8 holds from the system. */
export interface HeapFigures {
  heapUsed: number;
  heapTotal: number;
}

export const IDLE_GC: IdleGcPolicy = { quietElu: 0.02, minGrowthBytes: 8 * 1024 * 1024 };
export const IDLE_GC_EVERY_MS = 10_000;

/** Whether to collect now: quiet over the last period and the heap grew since the last collection. */
export function shouldCollect(
  p: IdleGcPolicy,
  elu: number,
  now: HeapFigures,
  afterLast: HeapFigures,
): boolean {
  if (elu >= p.quietElu) return false;
  return (
    now.heapUsed - afterLast.heapUsed >= p.minGrowthBytes ||
    now.heapTotal - afterLast.heapTotal >= p.minGrowthBytes
  );
}

const heap = (): HeapFigures => {
  const { heapUsed, heapTotal } = process.memoryUsage();
  return { heapUsed, heapTotal };
};

/**
 * `global.gc` without `--expose-gc` on the command line (the way node's own docs show), in its
 * `last-resort` flavour: a plain full collection keeps the young generation at the size load grew it
 * to (3 x 8 MB), this one shrinks it and hands the free pages back.
 */
function fullGc(): () => void {
  v8.setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as (o: object) => void;
  return () => gc({ type: 'major', execution: 'sync', flavor: 'last-resort' });
}

/**
 * Collects what the start left `firstMs` after it (call it once started: that garbage is certain),
 * then checks every `everyMs`. Returns a stop.
 */
export function startIdleGc(policy = IDLE_GC, everyMs = IDLE_GC_EVERY_MS, firstMs = 1000): () => void {
  const gc = fullGc();
  let afterLast: HeapFigures = { heapUsed: 0, heapTotal: 0 };
  let last = performance.eventLoopUtilization();
  const collect = () => {
    gc();
    afterLast = heap();
  };
  const first = setTimeout(collect, firstMs);
  first.unref();
  const timer = setInterval(() => {
    const now = performance.eventLoopUtilization();
    const elu = performance.eventLoopUtilization(now, last).utilization;
    last = now;
    if (shouldCollect(policy, elu, heap(), afterLast)) collect();
  }, everyMs);
  timer.unref();
  return () => {
    clearTimeout(first);
    clearInterval(timer);
  };
}
