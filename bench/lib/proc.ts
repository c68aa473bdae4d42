import { readdirSync, readFileSync } from 'node:fs';

/**
 * Current (VmRSS) and peak (VmHWM) resident memory of a process in MB, from /proc (Linux); of the
 * current, what is anonymous (heaps, malloc) and what file-backed (the node binary's pages, shared
 * with every node process of the host).
 */
export function rss(pid: number): { rssMb: number; hwmMb: number; anonMb: number; fileMb: number } | null {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (key: string) =>
      Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? Number.NaN);
    return {
      rssMb: round1(kb('VmRSS') / 1024),
      hwmMb: round1(kb('VmHWM') / 1024),
      anonMb: round1(kb('RssAnon') / 1024),
      fileMb: round1(kb('RssFile') / 1024),
    };
  } catch {
    return null;
  }
}

export const round1 = (n: number) => Math.round(n * 10) / 10;

/** The pid of the server process whose command line holds `binary` and `needle` (our own servers' ports). */
export function pidOf(binary: string, needle: string): number {
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const cmd = readFileSync(`/proc/${d}/cmdline`, 'utf8').split('\0').join(' ');
      if (cmd.includes(binary) && cmd.includes(needle)) return Number(d);
    } catch {
      // gone
    }
  }
  throw new Error(`no ${binary} process with ${needle}`);
}
