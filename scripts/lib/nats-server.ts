// Runs a nats-server of its own (pnpm start, tests of the secured configuration): a config file
// written to `dir` (mode 0600: it may hold passwords), JetStream under `dir`, ready when it says so.
import { type ChildProcess, spawn } from 'node:child_process';
import { accessSync, constants, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** nats-server from NATS_SERVER_BIN, PATH, or the Debian location; undefined when none. */
export function findNatsServer(env = process.env): string | undefined {
  const candidates = [
    env.NATS_SERVER_BIN,
    ...(env.PATH ?? '').split(path.delimiter).map((d) => d && path.join(d, 'nats-server')),
    '/usr/sbin/nats-server',
    '/usr/local/bin/nats-server',
  ];
  for (const c of candidates) {
    if (!c) continue;
    try {
      accessSync(c, constants.X_OK);
      return c;
    } catch {}
  }
  return undefined;
}

export interface RunningNats {
  url: string;
  port: number;
  pid: number;
  /** everything the server wrote so far (permission violations are logged there) */
  output(): string;
  stop(): Promise<void>;
}

export async function startNatsServer(opts: {
  bin: string;
  dir: string;
  port: number;
  /** the configuration text; `storeDir` is `<dir>/jetstream` */
  config: (storeDir: string) => string;
  timeoutMs?: number;
}): Promise<RunningNats> {
  mkdirSync(opts.dir, { recursive: true, mode: 0o700 });
  const file = path.join(opts.dir, 'nats.conf');
  writeFileSync(file, opts.config(path.join(opts.dir, 'jetstream')), { mode: 0o600 });
  const child: ChildProcess = spawn(opts.bin, ['-c', file], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  const collect = (d: Buffer) => {
    out += d.toString();
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`nats-server not ready:\n${out}`)),
      opts.timeoutMs ?? 15_000,
    );
    const check = () => {
      if (out.includes('Server is ready')) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout?.on('data', check);
    child.stderr?.on('data', check);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`nats-server exited with ${code}:\n${out}`));
    });
  });
  return {
    url: `nats://127.0.0.1:${opts.port}`,
    port: opts.port,
    pid: child.pid!,
    output: () => out,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
