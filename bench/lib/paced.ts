import http from 'node:http';
import { type LoadResult, percentiles } from './types.ts';

/**
 * Open-loop load at a fixed rate, evenly spaced, for "p99 at half load".
 * autocannon's `overallRate` is not that: each connection fires its per-second quota as fast as it
 * can and then waits for the next second (bursts at full speed), and its coordinated-omission
 * correction assumes a 1 ms interval. Here each request's latency runs from the moment it was due,
 * so a stalled server is not hidden by requests that were never sent.
 */
export async function paced(opts: {
  url: string;
  rate: number;
  duration: number;
  connections: number;
  method?: string;
  headers?: Record<string, string>;
  body?: string;
}): Promise<LoadResult> {
  const u = new URL(opts.url);
  const agent = new http.Agent({ keepAlive: true, maxSockets: opts.connections });
  const latencies: number[] = [];
  let non2xx = 0;
  let errors = 0;
  let inflight = 0;
  const send = (due: number) => {
    inflight++;
    const req = http.request(
      {
        host: u.hostname,
        port: u.port,
        path: u.pathname + u.search,
        method: opts.method ?? 'GET',
        headers: opts.headers,
        agent,
      },
      (res) => {
        res.on('data', () => {});
        res.on('end', () => {
          inflight--;
          latencies.push(performance.now() - due);
          if (!res.statusCode || res.statusCode < 200 || res.statusCode >= 300) non2xx++;
        });
      },
    );
    req.on('error', () => {
      inflight--;
      errors++;
    });
    req.end(opts.body);
  };
  // request k is due at start + k * interval; the loop spins with setImmediate (a timer's ~1-2 ms
  // granularity would show up as latency), so it takes a core, as autocannon does
  const start = performance.now();
  const interval = 1000 / opts.rate;
  const count = Math.floor((opts.duration * 1000) / interval);
  let sent = 0;
  await new Promise<void>((resolve) => {
    const tick = () => {
      const due = Math.min(count, Math.floor((performance.now() - start) / interval) + 1);
      while (sent < due) send(start + sent++ * interval);
      if (sent >= count) resolve();
      else setImmediate(tick);
    };
    tick();
  });
  const drainUntil = performance.now() + 10_000;
  while (inflight > 0 && performance.now() < drainUntil) await new Promise((r) => setTimeout(r, 5));
  agent.destroy();
  const p = percentiles(latencies);
  const round = (n: number) => Math.round(n * 100) / 100;
  return {
    reqPerSec: Math.round(latencies.length / opts.duration),
    p50Ms: round(p.p50Ms),
    p99Ms: round(p.p99Ms),
    non2xx,
    errors,
    total: latencies.length,
  };
}
