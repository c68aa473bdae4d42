// The services as production runs them (bundles, one process each), N replicas per service, under a
// small supervisor: a process that exits is started again (as an orchestrator would), and every exit
// is recorded so the runner can tell a kill it caused from a crash it did not.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { createWriteStream, mkdirSync, type WriteStream } from 'node:fs';
import path from 'node:path';
import { ROOT, SERVICES } from '../services.ts';

export type ServiceName = (typeof SERVICES)[number];

export interface ProcExit {
  at: number;
  proc: string;
  code: number | null;
  signal: string | null;
  /** true when the runner killed it on purpose */
  killed: boolean;
}

export interface Replica {
  id: string;
  service: ServiceName;
  index: number;
  child?: ChildProcess;
  ready: boolean;
  /** set while the runner keeps it down on purpose */
  held: boolean;
  starts: number;
}

export interface ChaosStack {
  publicUrls: string[];
  adminUrls: string[];
  adminToken: string;
  replicas: Replica[];
  exits: ProcExit[];
  /** SIGKILL one replica and start it again after `downMs` (resolves once started, not ready). */
  killAndRestart(r: Replica, downMs: number): Promise<void>;
  /** resolves once the replica reports ready */
  untilReady(r: Replica): Promise<void>;
  stop(): Promise<void>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export function buildBundles(): void {
  execFileSync(process.execPath, ['--import', 'tsx', path.join(ROOT, 'scripts', 'build.ts')], {
    stdio: 'ignore',
  });
}

export async function startChaosStack(opts: {
  env: Record<string, string>;
  /** each service's RPC signing key (RPC_SIGNING_KEY); the public keys go in env.RPC_PUBLIC_KEYS */
  signingKeys: Record<string, string>;
  replicas: number;
  gatewayPorts: { port: number; adminPort: number }[];
  logDir: string;
  log: (m: string) => void;
}): Promise<ChaosStack> {
  mkdirSync(opts.logDir, { recursive: true });
  const exits: ProcExit[] = [];
  const replicas: Replica[] = [];
  const logs = new Map<string, WriteStream>();
  let stopping = false;
  const killedOnPurpose = new WeakSet<ChildProcess>();

  const envOf = (r: Replica): Record<string, string | undefined> => {
    const env: Record<string, string | undefined> = {
      ...process.env,
      ...opts.env,
      RPC_SIGNING_KEY: opts.signingKeys[r.service],
    };
    if (r.service === 'gateway') {
      const p = opts.gatewayPorts[r.index];
      env.PORT = String(p.port);
      env.ADMIN_PORT = String(p.adminPort);
    }
    return env;
  };

  const launch = (r: Replica): Promise<void> => {
    r.ready = false;
    r.starts++;
    let out = logs.get(r.id);
    if (!out) {
      out = createWriteStream(path.join(opts.logDir, `${r.id}.log`), { flags: 'a' });
      logs.set(r.id, out);
    }
    const child = spawn(process.execPath, [path.join(ROOT, 'services', r.service, 'bin.mjs')], {
      cwd: ROOT,
      env: envOf(r),
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    });
    r.child = child;
    child.stdout!.pipe(out, { end: false });
    child.stderr!.pipe(out, { end: false });
    return new Promise<void>((resolve) => {
      child.on('message', (m: { type?: string }) => {
        if (m?.type === 'ready') {
          r.ready = true;
          resolve();
        }
      });
      child.once('exit', (code, signal) => {
        const killed = killedOnPurpose.has(child);
        exits.push({ at: Date.now(), proc: r.id, code, signal, killed });
        if (r.child === child) r.child = undefined;
        r.ready = false;
        resolve();
        if (stopping || r.held) return;
        // not ready yet (e.g. PostgreSQL down during its migrations) or crashed: start it again
        if (!killed) opts.log(`${r.id} exited (code ${code}, signal ${signal}); restarting`);
        setTimeout(() => {
          if (!stopping && !r.held && !r.child) void launch(r);
        }, 500);
      });
    });
  };

  /** Waits until the replica reports ready (restarting it as often as needed). */
  const untilReady = async (r: Replica, timeoutMs = 120_000) => {
    const until = Date.now() + timeoutMs;
    while (!r.ready) {
      if (Date.now() > until) throw new Error(`${r.id} not ready after ${timeoutMs} ms`);
      await sleep(50);
    }
  };

  // the merchant panel is not on the event path the scenario checks (and listens on one fixed port)
  for (const service of SERVICES.filter((s) => s !== 'panel'))
    for (let index = 0; index < opts.replicas; index++)
      replicas.push({ id: `${service}-${index}`, service, index, ready: false, held: false, starts: 0 });

  // the schema owners first (each migrates under an advisory lock), the gateways last
  const services = replicas.filter((r) => r.service !== 'gateway');
  await Promise.all(services.map((r) => launch(r)));
  await Promise.all(services.map((r) => untilReady(r)));
  const gateways = replicas.filter((r) => r.service === 'gateway');
  await Promise.all(gateways.map((r) => launch(r)));
  await Promise.all(gateways.map((r) => untilReady(r)));

  return {
    publicUrls: opts.gatewayPorts.map((p) => `http://127.0.0.1:${p.port}`),
    adminUrls: opts.gatewayPorts.map((p) => `http://127.0.0.1:${p.adminPort}`),
    adminToken: opts.env.ADMIN_TOKEN,
    replicas,
    exits,
    async killAndRestart(r, downMs) {
      r.held = true;
      const c = r.child;
      if (c) {
        killedOnPurpose.add(c);
        const exited = new Promise((res) => c.once('exit', res));
        c.kill('SIGKILL');
        await exited;
      }
      await sleep(downMs);
      r.held = false;
      if (!r.child) void launch(r);
    },
    untilReady: (r) => untilReady(r),
    async stop() {
      stopping = true;
      await Promise.all(
        replicas.map(async (r) => {
          const c = r.child;
          if (!c || c.exitCode !== null) return;
          const exited = new Promise((res) => c.once('exit', res));
          const t = setTimeout(() => c.kill('SIGKILL'), 8000);
          c.kill('SIGTERM');
          await exited;
          clearTimeout(t);
        }),
      );
      for (const l of logs.values()) l.end();
    },
  };
}
