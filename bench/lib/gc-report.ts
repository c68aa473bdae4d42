import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** One collection as bench/lib/gc-trace.mjs writes it (wall-clock ms). */
export interface GcEvent {
  proc: string;
  start: number;
  ms: number;
  kind: string;
  forced: boolean;
}

export function readGcTraces(dir: string, procs: Iterable<string>): GcEvent[] {
  const out: GcEvent[] = [];
  for (const proc of procs) {
    const file = path.join(dir, `${proc}.gc.jsonl`);
    if (!existsSync(file)) continue;
    for (const line of readFileSync(file, 'utf8').split('\n'))
      if (line) out.push({ proc, ...(JSON.parse(line) as Omit<GcEvent, 'proc'>) });
  }
  return out.sort((a, b) => a.start - b.start);
}

const round = (x: number) => Math.round(x * 100) / 100;

/**
 * Collections of a phase: per process and kind, how many, their total and longest pause; then the
 * share of confirms whose window (request sent -> visible in a poll) a collection overlapped, and
 * what overlapped the slowest ones (the tail).
 */
export function gcOfPhase(gcs: GcEvent[], windows: { id: string; from: number; to: number }[], tail = 4) {
  const done = windows.filter((w) => Number.isFinite(w.to));
  if (!done.length) return {};
  const from = Math.min(...done.map((w) => w.from));
  const to = Math.max(...done.map((w) => w.to));
  const inPhase = gcs.filter((g) => g.start + g.ms >= from && g.start <= to);
  const perProc: Record<string, { n: number; totalMs: number; maxMs: number }> = {};
  for (const g of inPhase) {
    const k = `${g.proc} ${g.kind}${g.forced ? ' forced' : ''}`;
    const s = (perProc[k] ??= { n: 0, totalMs: 0, maxMs: 0 });
    s.n++;
    s.totalMs = round(s.totalMs + g.ms);
    s.maxMs = round(Math.max(s.maxMs, g.ms));
  }
  const overlapping = (w: { from: number; to: number }) =>
    inPhase.filter((g) => g.start + g.ms >= w.from && g.start <= w.to);
  // the processes an event crosses (a collection elsewhere only takes a core from them)
  const onPath = (g: GcEvent) => ['gateway', 'orders', 'feed'].includes(g.proc);
  const pathMs = done.map((w) =>
    overlapping(w)
      .filter(onPath)
      .reduce((n, g) => n + g.ms, 0),
  );
  const pct = (xs: number[], p: number) => {
    const s = [...xs].sort((a, b) => a - b);
    return s.length ? round(s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]) : NaN;
  };
  const totals = (hit: boolean) => done.filter((_, i) => pathMs[i] > 0 === hit).map((w) => w.to - w.from);
  const slowest = [...done].sort((a, b) => b.to - b.from - (a.to - a.from)).slice(0, tail);
  return {
    perProcess: perProc,
    forcedCollections: inPhase.filter((g) => g.forced).length,
    /** pause of the gateway's, orders' and feed's collections within each confirm's window, ms */
    pathGcMs: { p50: pct(pathMs, 50), p90: pct(pathMs, 90), p99: pct(pathMs, 99), max: pct(pathMs, 100) },
    /** total latency of confirms with / without such a pause: n, p50, p99 */
    withPathGc: { n: totals(true).length, p50: pct(totals(true), 50), p99: pct(totals(true), 99) },
    withoutPathGc: { n: totals(false).length, p50: pct(totals(false), 50), p99: pct(totals(false), 99) },
    confirmsOverlappedPct: round((done.filter((w) => overlapping(w).length).length / done.length) * 100),
    slowest: slowest.map((w) => ({
      totalMs: round(w.to - w.from),
      gcs: overlapping(w).map((g) => `${g.proc} ${g.kind}${g.forced ? ' forced' : ''} ${round(g.ms)} ms`),
    })),
  };
}
