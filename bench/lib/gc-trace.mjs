// Measurement only (bench:orders-latency --gc): loaded into a service with `node --import`, appends
// one JSON line per garbage collection to $OD_BENCH_GC_FILE: wall-clock start and duration in ms
// (comparable with the bench's clock), kind (minor = scavenge, major = mark-compact, incremental
// marking, weakcb) and `forced`: run by a `gc()` call (the idle collection of libs/runtime, which
// gets `gc` through `vm.runInNewContext('gc')`; V8 flags such a collection no differently).
// Works for any checkout's services.
import { closeSync, openSync, writeSync } from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import { constants, PerformanceObserver, performance } from 'node:perf_hooks';
import vm from 'node:vm';

const file = process.env.OD_BENCH_GC_FILE;
if (file) {
  const fd = openSync(file, 'a');
  const kinds = {
    [constants.NODE_PERFORMANCE_GC_MINOR]: 'minor',
    [constants.NODE_PERFORMANCE_GC_MAJOR]: 'major',
    [constants.NODE_PERFORMANCE_GC_INCREMENTAL]: 'incremental',
    [constants.NODE_PERFORMANCE_GC_WEAKCB]: 'weakcb',
  };
  /** [from, to] of each gc() call, performance.now() */
  const calls = [];
  const run = vm.runInNewContext;
  vm.runInNewContext = (code, ...rest) => {
    const f = run(code, ...rest);
    if (code !== 'gc') return f;
    return (...args) => {
      const from = performance.now();
      try {
        return f(...args);
      } finally {
        calls.push([from, performance.now()]);
      }
    };
  };
  syncBuiltinESMExports();
  new PerformanceObserver((list) => {
    let out = '';
    for (const e of list.getEntries()) {
      const forced = calls.some(([a, b]) => e.startTime >= a && e.startTime <= b);
      const line = {
        start: performance.timeOrigin + e.startTime,
        ms: e.duration,
        kind: kinds[e.detail.kind] ?? e.detail.kind,
        forced,
      };
      out += `${JSON.stringify(line)}\n`;
    }
    writeSync(fd, out);
  }).observe({ entryTypes: ['gc'] });
  process.on('exit', () => closeSync(fd));
}
