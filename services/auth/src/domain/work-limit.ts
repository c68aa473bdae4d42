/**
 * Bounded concurrent work: at most `active` tasks run, at most `queued` wait; anything beyond is
 * refused at once (`Busy`), so a flood is answered immediately instead of queueing every caller
 * behind it. Queued tasks start in arrival order.
 */
export class Busy extends Error {}

export interface WorkLimit {
  run<T>(task: () => Promise<T>): Promise<T>;
  /** running and waiting now (for logs/tests) */
  load(): { active: number; queued: number };
}

export function workLimit(active: number, queued: number): WorkLimit {
  let running = 0;
  const waiting: (() => void)[] = [];
  const release = () => {
    running--;
    const next = waiting.shift();
    if (next) {
      running++;
      next();
    }
  };
  return {
    async run(task) {
      if (running >= active) {
        if (waiting.length >= queued) throw new Busy('too much work in progress');
        await new Promise<void>((resolve) => waiting.push(resolve));
      } else running++;
      try {
        return await task();
      } finally {
        release();
      }
    },
    load: () => ({ active: running, queued: waiting.length }),
  };
}
