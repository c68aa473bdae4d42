// Own PostgreSQL, Redis and NATS (JetStream) servers on spare ports, each in its own temp dir, that a
// fault test or the chaos runner may kill, stop and restart. Never the machine's default instances.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { chownSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { answers } from '../../libs/testing/src/infra.ts';
import { freePort } from '../../libs/testing/src/servers.ts';

export { freePort };

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function waitPort(port: number, open: boolean, timeoutMs = 30_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while ((await answers(`http://127.0.0.1:${port}`, port)) !== open) {
    if (Date.now() > until) throw new Error(`port ${port} did not ${open ? 'open' : 'close'}`);
    await sleep(50);
  }
}

/** A server the caller can stop (the way given) and start again on the same port and data. */
export interface OwnServer {
  kind: 'postgres' | 'redis' | 'nats';
  url: string;
  port: number;
  start(): Promise<void>;
  /** kill: SIGKILL (nats, redis) / `pg_ctl -m immediate` (postgres) */
  stop(): Promise<void>;
  running(): boolean;
  /** SIGSTOP / SIGCONT: the server keeps its sockets open but stops answering (child servers only) */
  pause?(): void;
  resume?(): void;
  /** stops it and removes its data */
  destroy(): Promise<void>;
}

/** A server run as a child process (redis-server, nats-server) in its own temp dir. */
async function childServer(
  kind: 'redis' | 'nats',
  cmd: string,
  args: (port: number, dir: string) => string[],
): Promise<OwnServer> {
  const port = await freePort();
  const dir = mkdtempSync(path.join(os.tmpdir(), `od-${kind}-`));
  let child: ChildProcess | undefined;
  const stop = async () => {
    const c = child;
    child = undefined;
    if (!c || c.exitCode !== null) return;
    const exited = new Promise((r) => c.once('exit', r));
    c.kill('SIGKILL');
    await exited;
    await waitPort(port, false);
  };
  const server: OwnServer = {
    kind,
    url: `${kind}://127.0.0.1:${port}`,
    port,
    running: () => child !== undefined,
    async start() {
      if (child) return;
      child = spawn(cmd, args(port, dir), { stdio: 'ignore', cwd: dir });
      await waitPort(port, true);
    },
    stop,
    pause: () => child?.kill('SIGSTOP'),
    resume: () => child?.kill('SIGCONT'),
    async destroy() {
      child?.kill('SIGCONT');
      await stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  await server.start();
  return server;
}

/** Redis without persistence: a restart loses its data (idempotency records, rate-limit logs). */
export const ownRedis = () =>
  childServer('redis', 'redis-server', (port, dir) => [
    ...['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    ...['--dir', dir],
  ]);

/** NATS with JetStream; the store dir survives restarts (streams and consumers are kept). */
export const ownNats = () =>
  childServer('nats', 'nats-server', (port, dir) => [
    '-a',
    '127.0.0.1',
    '-p',
    String(port),
    '-js',
    '-sd',
    dir,
  ]);

/**
 * A PostgreSQL cluster made by initdb in a temp dir (run as the `postgres` user when we are root:
 * PostgreSQL refuses to run as root), trust auth, fsync off (tests; durability is not under test).
 */
export async function ownPostgres(): Promise<OwnServer> {
  const port = await freePort();
  const dir = mkdtempSync(path.join(os.tmpdir(), 'od-pg-'));
  const data = path.join(dir, 'data');
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    const uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres']).toString().trim());
    chownSync(dir, uid, gid);
  }
  const run = (cmd: string, args: string[]) =>
    asRoot
      ? execFileSync('runuser', ['-u', 'postgres', '--', cmd, ...args], { stdio: 'pipe' })
      : execFileSync(cmd, args, { stdio: 'pipe' });
  run('initdb', ['-D', data, '-U', 'postgres', '-A', 'trust', '--no-sync', '-E', 'UTF8']);
  const opts = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=300`;
  let up = false;
  const start = async () => {
    if (up) return;
    run('pg_ctl', ['-D', data, '-o', opts, '-l', path.join(dir, 'log'), '-w', '-t', '60', 'start']);
    up = true;
    await waitPort(port, true);
  };
  const stop = async () => {
    if (!up) return;
    up = false;
    run('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
    await waitPort(port, false);
  };
  await start();
  return {
    kind: 'postgres',
    url: `postgresql://postgres@127.0.0.1:${port}/postgres`,
    port,
    running: () => up,
    start,
    stop,
    async destroy() {
      await stop().catch(() => {});
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
