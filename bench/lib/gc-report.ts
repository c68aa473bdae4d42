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
export function gcOfPhase(
  gcs: GcEvent[],
  windows: { id: string; from: number; to: number }[],
  tail = 4,
) {
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
  const slowest = [...done].sort((a, b) => b.to - b.from - (a.to - a.from)).slice(0, tail);
  return {
    perProcess: perProc,
    confirmsOverlappedPct: round((done.filter((w) => overlapping(w).length).length / done.length) * 100),
    slowest: slowest.map((w) => ({
      totalMs: round(w.to - w.from),
      gcs: overlapping(w).map((g) => `${g.proc} ${g.kind}${g.forced ? ' forced' : ''} ${round(g.ms)} ms`),
    })),
  };
}
