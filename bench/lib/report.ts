import type { Figure } from './types.ts';

export const SHORT: Record<string, string> = {
  gateway: 'gw',
  auth: 'auth',
  catalog: 'cat',
  orders: 'ord',
  feed: 'feed',
  webhook: 'wh',
};
export const RSS_ORDER = ['gateway', 'auth', 'catalog', 'orders', 'feed', 'webhook'];

const num = (v: number | undefined, digits = 0) =>
  v === undefined || Number.isNaN(v)
    ? '-'
    : v.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

function table(header: string[], rows: string[][], right: boolean[]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) =>
    cells.map((c, i) => (right[i] ? c.padStart(widths[i]) : c.padEnd(widths[i]))).join('  ');
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

export function figuresTable(figures: Figure[]): string {
  const rssCols = RSS_ORDER.filter((s) => figures.some((f) => f.peakRssMb?.[s] !== undefined));
  const header = ['figure', 'req/s', 'of bare', 'p50 ms', 'p99 ms', 'non2xx/err'];
  const right = [false, true, true, true, true, true];
  if (rssCols.length) {
    header.push(`peak RSS MB (${rssCols.map((s) => SHORT[s] ?? s).join('/')})`);
    right.push(false);
  }
  header.push('notes');
  right.push(false);
  const rows = figures.map((f) => {
    const row = [
      f.name,
      num(f.reqPerSec),
      f.ratio === undefined ? '-' : `${(f.ratio * 100).toFixed(1)}%`,
      num(f.p50Ms, 2),
      num(f.p99Ms, 2),
      f.non2xx || f.errors ? `${f.non2xx ?? 0}/${f.errors ?? 0}` : '',
    ];
    if (rssCols.length) row.push(f.peakRssMb ? rssCols.map((s) => num(f.peakRssMb?.[s])).join('/') : '');
    row.push(
      f.extra && Object.keys(f.extra).length
        ? Object.entries(f.extra)
            .map(([k, v]) => `${k}=${v}`)
            .join(' ')
        : '',
    );
    return row;
  });
  return table(header, rows, right);
}

export function rssTable(idle: Record<string, number>, peak: Record<string, number>): string {
  const rows = RSS_ORDER.filter((s) => idle[s] !== undefined || peak[s] !== undefined).map((s) => [
    s,
    num(idle[s], 1),
    num(peak[s], 1),
  ]);
  return table(['service', 'idle RSS MB', 'peak RSS MB (VmHWM)'], rows, [false, true, true]);
}

export interface Goal {
  goal: string;
  value: string;
  ok: boolean | null;
}

export function goalsTable(goals: Goal[]): string {
  return table(
    ['goal', 'measured', 'result'],
    goals.map((g) => [g.goal, g.value, g.ok === null ? 'n/a' : g.ok ? 'PASS' : 'FAIL']),
    [false, true, false],
  );
}
