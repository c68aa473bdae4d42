import autocannon from 'autocannon';
import { paced } from './paced.ts';
import type { LoadOptions, LoadResult } from './types.ts';

function runOnce(opts: autocannon.Options): Promise<autocannon.Result> {
  return new Promise((resolve, reject) => {
    autocannon(opts, (err, result) => (err ? reject(err) : resolve(result)));
  });
}

/** autocannon in this process against `base` (+ opts.path); a warm-up first, then the measured run. */
export async function load(
  base: string,
  opts: LoadOptions,
  defaults: { duration: number; connections: number },
): Promise<LoadResult> {
  const url = /^https?:/.test(opts.path) ? opts.path : base + opts.path;
  const common: autocannon.Options = {
    url,
    method: opts.method ?? 'GET',
    headers: opts.headers,
    body: opts.body,
    requests: opts.requests,
    connections: opts.connections ?? defaults.connections,
    overallRate: opts.overallRate,
  };
  const warmup = opts.warmup ?? 1;
  if (opts.overallRate && !opts.requests) {
    // a fixed rate: evenly paced open-loop requests (see paced.ts for why not autocannon's overallRate)
    const p = {
      url,
      rate: opts.overallRate,
      connections: common.connections!,
      method: opts.method,
      headers: opts.headers,
      body: opts.body,
    };
    if (warmup > 0) await paced({ ...p, duration: warmup });
    return paced({ ...p, duration: opts.duration ?? defaults.duration });
  }
  if (warmup > 0) await runOnce({ ...common, duration: warmup });
  const r = await runOnce({ ...common, duration: opts.duration ?? defaults.duration });
  return {
    reqPerSec: Math.round(r.requests.average),
    p50Ms: r.latency.p50,
    p99Ms: r.latency.p99,
    non2xx: r.non2xx,
    errors: r.errors,
    total: r.requests.total,
  };
}
