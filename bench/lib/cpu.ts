import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { pidOf } from './proc.ts';

const TICK_US = 1_000_000 / Number(execFileSync('getconf', ['CLK_TCK']).toString().trim() || 100);

/**
 * utime + stime of a process in µs (0 when it is gone); `reaped` adds what its exited children used
 * (a PostgreSQL postmaster: backends that closed between two readings are not lost).
 */
function cpuUs(pid: number, reaped = false): number {
  try {
    // the command name may hold spaces: the fields after it start behind the last ')'
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const own = Number(f[11]) + Number(f[12]);
    return (reaped ? own + Number(f[13]) + Number(f[14]) : own) * TICK_US;
  } catch {
    return 0;
  }
}

/** A process and all its descendants (a PostgreSQL postmaster and its backends). */
export function processTree(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = readFileSync(`/proc/${d}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(d)]);
    } catch {
      // gone meanwhile
    }
  }
  const out: number[] = [];
  const walk = (p: number) => {
    out.push(p);
    for (const c of children.get(p) ?? []) walk(c);
  };
  walk(root);
  return out;
}

/** CPU time per named group of processes (pids looked up at each read: backends come and go). */
export type ProcessGroups = Record<string, () => number[]>;

export function cpuSnapshot(groups: ProcessGroups): Record<string, number> {
  return Object.fromEntries(
    // the first pid of a group is its root: its reaped children count too
    Object.entries(groups).map(([name, pids]) => [
      name,
      pids().reduce((n, p, i) => n + cpuUs(p, i === 0), 0),
    ]),
  );
}

/**
 * µs of CPU per request of each group over `run`, with the idle cost of the same wall time taken off
 * (measured just before over `idleMs`).
 */
export async function cpuPerRequest(
  groups: ProcessGroups,
  run: () => Promise<{ total: number }>,
  idleMs = 2000,
): Promise<Record<string, number>> {
  const i0 = cpuSnapshot(groups);
  await new Promise((r) => setTimeout(r, idleMs));
  const i1 = cpuSnapshot(groups);
  const t0 = Date.now();
  const a = cpuSnapshot(groups);
  const { total } = await run();
  const b = cpuSnapshot(groups);
  const wall = Date.now() - t0;
  const out: Record<string, number> = {};
  for (const name of Object.keys(groups)) {
    const idle = ((i1[name] - i0[name]) / idleMs) * wall;
    out[name] = Math.max(0, Math.round((b[name] - a[name] - idle) / Math.max(1, total)));
  }
  out.total = Object.values(out).reduce((n, v) => n + v, 0);
  return out;
}

/**
 * The processes a request to `service` crosses in a bench stack: the gateway, that service, its
 * nats-server, its PostgreSQL (the postmaster and its backends) and its Redis, found by port.
 */
export function stackGroups(
  stack: { procs: Map<string, { pid: number }>; nats: { pid: number } },
  pg: { port: number },
  redis: { port: number },
): (service: string) => ProcessGroups {
  const pgPid = pidOf('postgres', `-p ${pg.port}`);
  const redisPid = pidOf('redis-server', String(redis.port));
  return (service) => ({
    gateway: () => [stack.procs.get('gateway')!.pid],
    [service]: () => [stack.procs.get(service)!.pid],
    nats: () => [stack.nats.pid],
    postgres: () => processTree(pgPid),
    redis: () => [redisPid],
  });
}
