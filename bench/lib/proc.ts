import { readFileSync } from 'node:fs';

/** Current (VmRSS) and peak (VmHWM) resident memory of a process in MB, from /proc (Linux). */
export function rss(pid: number): { rssMb: number; hwmMb: number } | null {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (key: string) =>
      Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? Number.NaN);
    return { rssMb: round1(kb('VmRSS') / 1024), hwmMb: round1(kb('VmHWM') / 1024) };
  } catch {
    return null;
  }
}

export const round1 = (n: number) => Math.round(n * 10) / 10;
