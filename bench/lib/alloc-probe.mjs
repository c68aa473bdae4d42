// Measurement only (bench/alloc.ts): loaded into a service with `node --import`. SIGUSR2 starts a
// window, the next SIGUSR2 ends it and writes $OD_BENCH_ALLOC_DIR/<pid>.json: the bytes allocated on
// the V8 heap in the window (exact: heap used before each collection less after the previous one,
// from v8.GCProfiler) and, by function, the sampling heap profiler's estimate with the objects
// already collected kept (what a request leaves as garbage is what the scavenges pay for).
// Works for any checkout's services.
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import path from 'node:path';
import v8 from 'node:v8';

const dir = process.env.OD_BENCH_ALLOC_DIR;
if (dir) {
  const session = new Session();
  session.connect();
  const post = (method, params) =>
    new Promise((resolve, reject) =>
      session.post(method, params, (err, res) => (err ? reject(err) : resolve(res))),
    );
  let window;
  process.on('SIGUSR2', async () => {
    if (!window) {
      window = { gc: new v8.GCProfiler(), usedAtStart: v8.getHeapStatistics().used_heap_size };
      window.gc.start();
      await post('HeapProfiler.startSampling', {
        samplingInterval: 1024,
        includeObjectsCollectedByMajorGC: true,
        includeObjectsCollectedByMinorGC: true,
      });
      return;
    }
    const { gc, usedAtStart } = window;
    window = undefined;
    const usedAtEnd = v8.getHeapStatistics().used_heap_size;
    const { profile } = await post('HeapProfiler.stopSampling');
    const { statistics } = gc.stop();
    let allocated = 0;
    let after = usedAtStart;
    for (const s of statistics) {
      allocated += s.beforeGC.heapStatistics.usedHeapSize - after;
      after = s.afterGC.heapStatistics.usedHeapSize;
    }
    allocated += usedAtEnd - after;
    const bySite = new Map();
    const walk = (node, stack) => {
      const f = node.callFrame;
      const name = `${f.functionName || '(anonymous)'} ${path.basename(f.url)}:${f.lineNumber + 1}:${f.columnNumber + 1}`;
      const here = [...stack, name];
      if (node.selfSize) {
        const s = bySite.get(name) ?? { bytes: 0, callers: new Map() };
        s.bytes += node.selfSize;
        const caller = here.slice(-4, -1).reverse().join(' < ');
        s.callers.set(caller, (s.callers.get(caller) ?? 0) + node.selfSize);
        bySite.set(name, s);
      }
      for (const c of node.children) walk(c, here);
    };
    walk(profile.head, []);
    const sites = [...bySite]
      .sort((a, b) => b[1].bytes - a[1].bytes)
      .slice(0, 40)
      .map(([site, s]) => ({
        site,
        bytes: s.bytes,
        callers: [...s.callers]
          .sort((a, b) => b[1] - a[1])
          .slice(0, 3)
          .map(([c, b]) => `${b} ${c}`),
      }));
    const sampled = [...bySite.values()].reduce((n, s) => n + s.bytes, 0);
    // the whole profile too (Chrome DevTools opens it), for a look beyond the top sites
    writeFileSync(path.join(dir, `${process.pid}.heapprofile`), JSON.stringify(profile));
    writeFileSync(
      path.join(dir, `${process.pid}.json`),
      JSON.stringify({ allocated, collections: statistics.length, sampled, sites }),
    );
  });
}
