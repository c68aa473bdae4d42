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
  chosenPort?: number,
): Promise<OwnServer> {
  const port = chosenPort ?? (await freePort());
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

/** One node of a JetStream cluster: its server name and the OwnServer that runs it. */
export interface NatsNode {
  name: string;
  server: OwnServer;
}

/**
 * A JetStream cluster of `size` nats-server nodes on spare ports (client and route port each), every
 * node routed to every other, each with its own store dir kept across restarts. `all` stops and
 * starts the whole cluster (the `nats` fault); `nodes` are killed one at a time (the `natsnode` fault).
 */
export async function ownNatsCluster(
  size: number,
): Promise<{ nodes: NatsNode[]; all: OwnServer; url: string }> {
  const ports = await Promise.all(Array.from({ length: size }, () => freePort()));
  const routes = await Promise.all(Array.from({ length: size }, () => freePort()));
  const routeList = routes.map((p) => `nats://127.0.0.1:${p}`).join(',');
  const nodes = await Promise.all(
    ports.map(async (port, i) => ({
      name: `n${i + 1}`,
      server: await childServer(
        'nats',
        'nats-server',
        (p, dir) => [
          ...['-a', '127.0.0.1', '-p', String(p), '-js', '-sd', dir, '-n', `n${i + 1}`],
          ...['--cluster_name', 'chaos', '--cluster', `nats://127.0.0.1:${routes[i]}`, '--routes', routeList],
        ],
        port,
      ),
    })),
  );
  const url = ports.map((p) => `nats://127.0.0.1:${p}`).join(',');
  const all: OwnServer = {
    kind: 'nats',
    url,
    port: ports[0],
    running: () => nodes.every((n) => n.server.running()),
    start: async () => {
      await Promise.all(nodes.map((n) => n.server.start()));
    },
    stop: async () => {
      await Promise.all(nodes.map((n) => n.server.stop()));
    },
    destroy: async () => {
      await Promise.all(nodes.map((n) => n.server.destroy()));
    },
  };
  return { nodes, all, url };
}

/**
 * A PostgreSQL cluster made by initdb in a temp dir (run as the `postgres` user when we are root:
 * PostgreSQL refuses to run as root), trust auth, fsync off unless `settings` say otherwise (tests;
 * durability is not under test).
 */
export async function ownPostgres(settings: Record<string, string> = {}): Promise<OwnServer> {
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
  // `settings` override these (the latency bench runs with fsync on and commit timestamps)
  const all = { listen_addresses: '127.0.0.1', fsync: 'off', max_connections: '300', ...settings };
  const opts = `-p ${port} -k ${dir} ${Object.entries(all)
    .map(([k, v]) => `-c ${k}=${v}`)
    .join(' ')}`;
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
