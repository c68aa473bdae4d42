import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BUS_IDENTITIES, type BusIdentity, natsServerConfig } from '@od/bus';
import { Redis } from 'ioredis';
import pg from 'pg';
import { freePort } from '../../scripts/chaos/servers.ts';
import { localProductionEnv, rpcKeyRing } from '../../scripts/lib/local-production-env.ts';
import { findNatsServer, type RunningNats, startNatsServer } from '../../scripts/lib/nats-server.ts';
import { NODE_FLAGS, PROCESS_ENV, ROOT, SERVICES } from '../../scripts/services.ts';
import { rss } from './proc.ts';

export { freePort };

export const RESULTS_DIR = path.join(ROOT, 'bench', 'results');

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A process started by the harness, with its output going to bench/results/<name>.log. */
export interface Proc {
  name: string;
  child: ChildProcess;
  readonly pid: number;
  logFile: string;
  stop(): Promise<void>;
}

/** How a checkout runs a service process: its scripts/services.ts NODE_FLAGS and PROCESS_ENV. */
export interface ProcessSettings {
  flags: readonly string[];
  env: Readonly<Record<string, string>>;
}

export function spawnNode(
  name: string,
  script: string,
  env: Record<string, string | undefined>,
  logName = name,
  settings: ProcessSettings = { flags: NODE_FLAGS, env: PROCESS_ENV },
): Proc {
  mkdirSync(RESULTS_DIR, { recursive: true });
  const logFile = path.join(RESULTS_DIR, `${logName}.log`);
  const out = createWriteStream(logFile);
  // the node flags and environment of the images (deploy/Dockerfile)
  const child = spawn(process.execPath, [...settings.flags, script], {
    cwd: ROOT,
    env: { ...settings.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.pipe(out);
  child.stderr!.pipe(out);
  return {
    name,
    child,
    get pid() {
      return child.pid!;
    },
    logFile,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        const t = setTimeout(() => child.kill('SIGKILL'), 8000);
        child.once('exit', () => {
          clearTimeout(t);
          resolve();
        });
        child.kill('SIGTERM');
      }),
  };
}

export function tail(file: string, lines = 15): string {
  try {
    return readFileSync(file, 'utf8').trim().split('\n').slice(-lines).join('\n');
  } catch {
    return '';
  }
}

/** The bare fastify yardstick in its own process. */
export async function startBare(): Promise<{ url: string; proc: Proc }> {
  const child = spawn(process.execPath, [path.join(ROOT, 'bench', 'lib', 'bare-fastify.mjs')], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const port = await new Promise<number>((resolve, reject) => {
    let buf = '';
    child.stdout!.on('data', (d: Buffer) => {
      buf += d.toString();
      const m = /"port":(\d+)/.exec(buf);
      if (m) resolve(Number(m[1]));
    });
    child.once('exit', (c) => reject(new Error(`bare fastify exited with ${c}`)));
  });
  const proc: Proc = {
    name: 'bare-fastify',
    child,
    get pid() {
      return child.pid!;
    },
    logFile: '',
    stop: async () => {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await exited;
      }
    },
  };
  return { url: `http://127.0.0.1:${port}`, proc };
}

export interface ProcessStack {
  /** NATS and Redis names (`names(prefix)`), database `od_<prefix>` */
  prefix: string;
  /** the secured nats-server of this stack (as `pnpm start` runs one) */
  nats: RunningNats;
  publicUrl: string;
  adminUrl: string;
  adminToken: string;
  /** a JSON request to the Admin API with the stack's token */
  admin(method: string, path: string, body?: unknown): Promise<Response>;
  /** the stack's database (every service's schema in it) */
  databaseUrl: string;
  procs: Map<string, Proc>;
  /** user and password of a bus identity, for a harness that listens as that service would */
  natsUser(identity: BusIdentity): { user: string; pass: string };
  /** peak RSS (VmHWM, MB) per service over the run, processes replaced by a restart included */
  peakRss(): Record<string, number>;
  restartGateway(extraEnv: Record<string, string>): Promise<void>;
  stop(opts?: { keepDatabase?: boolean }): Promise<void>;
}

/**
 * The whole stack as production runs it: one `node services/<name>/bin.mjs` process per service,
 * on a database `od_<prefix>` created fresh, NATS/Redis names under `<prefix>`, free ports.
 */
export async function startProcessStack(opts: {
  prefix: string;
  env?: Record<string, string>;
  log: (m: string) => void;
  /**
   * measurement only (bench:hot-path --open-responses): every identity may publish to any inbox
   * instead of nats-server's `allow_responses` (what the response permissions cost the server)
   */
  openResponses?: boolean;
  /**
   * the checkout whose services run (default: this one): bench:hot-path --baseline runs a second
   * stack from another checkout beside this one (its logs are `<prefix>-<service>.log`)
   */
  root?: string;
  /** a second stack of this checkout beside the first (bench:hot-path --tracing-ab): logs `<prefix>-<service>.log` */
  besideAnother?: boolean;
  /**
   * measurement only: every collection of every service appended to `<dir>/<service>.gc.jsonl`
   * (bench/lib/gc-trace.mjs, loaded with `--import`, so it works for another checkout's services)
   */
  gcTraceDir?: string;
  /** measurement only: node flags after the images' (NODE_FLAGS), e.g. another young generation size */
  nodeFlags?: string[];
  /**
   * measurement only: bench/lib/alloc-probe.mjs in every service (SIGUSR2 opens and closes a window
   * of allocation, written to `<dir>/<pid>.json`)
   */
  allocProbeDir?: string;
}): Promise<ProcessStack> {
  const root = opts.root ?? ROOT;
  // another checkout (--baseline) runs its services with its own flags and environment
  const own = opts.root
    ? ((await import(path.join(root, 'scripts', 'services.ts'))) as {
        NODE_FLAGS: readonly string[];
        PROCESS_ENV: Record<string, string>;
      })
    : { NODE_FLAGS, PROCESS_ENV };
  const settings: ProcessSettings = { flags: own.NODE_FLAGS, env: own.PROCESS_ENV };
  const logName = (s: string) => (opts.root || opts.besideAnother ? `${opts.prefix}-${s}` : s);
  const baseDb = process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
  // the bus as `pnpm start` and production run it: a nats-server of its own with one identity per
  // service and the generated permissions (signed requests, no anonymous access)
  const bin = findNatsServer();
  if (!bin) throw new Error('nats-server not found (NATS_SERVER_BIN, PATH or /usr/sbin/nats-server)');
  const natsDir = mkdtempSync(path.join(os.tmpdir(), 'od-bench-nats-'));
  const natsPort = await freePort();
  const passwords = Object.fromEntries(
    BUS_IDENTITIES.map((id) => [id, randomBytes(18).toString('base64url')]),
  ) as Record<BusIdentity, string>;
  const nats = await startNatsServer({
    bin,
    dir: natsDir,
    port: natsPort,
    config: (storeDir) => {
      const text = natsServerConfig({
        prefix: opts.prefix,
        listen: `127.0.0.1:${natsPort}`,
        storeDir,
        passwords,
      });
      return opts.openResponses
        ? text
            .replace(/publish: \{ allow: \[/g, 'publish: { allow: ["_INBOX.>", ')
            .replace(/\n\s*allow_responses: true/g, '')
        : text;
    },
  });
  const natsUrl = nats.url;
  const keys = rpcKeyRing(SERVICES);
  const serviceEnv = (svc: string) => ({
    NATS_USER: svc,
    NATS_PASSWORD: passwords[svc as BusIdentity],
    RPC_SIGNING_KEY: keys.signingKeys[svc],
  });
  const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
  const dbName = `od_${opts.prefix}`;

  // fresh database, NATS streams/buckets and Redis keys of this prefix
  const admin = new pg.Client({ connectionString: baseDb });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
  await admin.query(`CREATE DATABASE ${dbName}`);
  await admin.end();
  await deleteRedisKeys(redisUrl, `${opts.prefix}:*`);

  const dbUrl = new URL(baseDb);
  dbUrl.pathname = `/${dbName}`;
  const port = await freePort();
  const adminPort = await freePort();
  // never the fixed default (8082): another stack on the machine may hold it
  const panelPort = await freePort();
  const production = localProductionEnv('bench');
  const adminToken = production.ADMIN_TOKEN;
  const env: Record<string, string | undefined> = {
    ...process.env,
    ...production,
    DATABASE_URL: dbUrl.toString(),
    REDIS_URL: redisUrl,
    NATS_URL: natsUrl,
    NATS_PREFIX: opts.prefix,
    PORT: String(port),
    ADMIN_PORT: String(adminPort),
    PANEL_PORT: String(panelPort),
    RPC_PUBLIC_KEYS: keys.publicKeys,
    ...opts.env,
  };
  const publicUrl = `http://127.0.0.1:${port}`;
  const adminUrl = `http://127.0.0.1:${adminPort}`;
  const procs = new Map<string, Proc>();
  const script = (s: string) => path.join(root, 'services', s, 'bin.mjs');
  const gcDir = opts.gcTraceDir;
  const benchFlags = [
    ...(opts.nodeFlags ?? []),
    ...(gcDir ? ['--import', path.join(ROOT, 'bench', 'lib', 'gc-trace.mjs')] : []),
    ...(opts.allocProbeDir ? ['--import', path.join(ROOT, 'bench', 'lib', 'alloc-probe.mjs')] : []),
  ];
  const gcEnv = (s: string): Record<string, string> => ({
    ...(gcDir ? { OD_BENCH_GC_FILE: path.join(gcDir, `${s}.gc.jsonl`) } : {}),
    ...(opts.allocProbeDir ? { OD_BENCH_ALLOC_DIR: opts.allocProbeDir } : {}),
  });
  const run: ProcessSettings = { flags: [...settings.flags, ...benchFlags], env: settings.env };
  // production runs the bundles (NODE_ENV=production makes bin.mjs load dist/main.mjs)
  execFileSync(process.execPath, ['--import', 'tsx', path.join(root, 'scripts', 'build.ts')], {
    stdio: 'ignore',
  });

  const failIfExited = () => {
    for (const p of procs.values()) {
      if (p.child.exitCode !== null) {
        throw new Error(`${p.name} exited with ${p.child.exitCode}:\n${tail(p.logFile)}`);
      }
    }
  };
  const waitHealthy = async (timeoutMs = 90_000) => {
    const until = Date.now() + timeoutMs;
    let last = '';
    while (Date.now() < until) {
      failIfExited();
      try {
        const r = await fetch(`${adminUrl}/admin/v1/health`, {
          headers: { authorization: `Bearer ${adminToken}` },
          signal: AbortSignal.timeout(3000),
        });
        last = await r.text();
        if (r.status === 200) return;
      } catch (e) {
        last = (e as Error).message;
      }
      await sleep(300);
    }
    throw new Error(`stack not healthy after ${timeoutMs} ms: ${last}`);
  };

  const stopAll = async () => {
    const order = [...procs.values()].reverse(); // gateway first
    await Promise.all(order.map((p) => p.stop()));
  };
  try {
    // services in parallel (each applies its own migrations under an advisory lock), gateway last
    for (const s of SERVICES.filter((x) => x !== 'gateway'))
      procs.set(s, spawnNode(s, script(s), { ...env, ...serviceEnv(s), ...gcEnv(s) }, logName(s), run));
    procs.set(
      'gateway',
      spawnNode(
        'gateway',
        script('gateway'),
        { ...env, ...serviceEnv('gateway'), ...gcEnv('gateway') },
        logName('gateway'),
        run,
      ),
    );
    await waitHealthy();
  } catch (e) {
    await stopAll();
    await nats.stop();
    rmSync(natsDir, { recursive: true, force: true });
    throw e;
  }
  opts.log(`stack up: public ${publicUrl}, admin ${adminUrl}, database ${dbName}, prefix ${opts.prefix}`);

  const peaks: Record<string, number> = {};
  const samplePeaks = () => {
    for (const [name, p] of procs) {
      const r = rss(p.pid);
      if (r && !(r.hwmMb <= (peaks[name] ?? 0))) peaks[name] = r.hwmMb;
    }
    return { ...peaks };
  };

  return {
    prefix: opts.prefix,
    nats,
    publicUrl,
    adminUrl,
    adminToken,
    admin: (method, p, body) =>
      fetch(adminUrl + p, {
        method,
        headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      }),
    databaseUrl: dbUrl.toString(),
    procs,
    natsUser: (identity) => ({ user: identity, pass: passwords[identity] }),
    peakRss: samplePeaks,
    async restartGateway(extraEnv) {
      samplePeaks();
      await procs.get('gateway')!.stop();
      procs.set(
        'gateway',
        spawnNode(
          'gateway',
          script('gateway'),
          { ...env, ...serviceEnv('gateway'), ...extraEnv },
          logName('gateway'),
          settings,
        ),
      );
      await waitHealthy();
    },
    async stop(o = {}) {
      await stopAll();
      await nats.stop().catch(() => {});
      rmSync(natsDir, { recursive: true, force: true });
      await deleteRedisKeys(redisUrl, `${opts.prefix}:*`).catch(() => {});
      if (!o.keepDatabase) {
        const c = new pg.Client({ connectionString: baseDb });
        await c.connect();
        await c.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`).catch(() => {});
        await c.end();
      }
    },
  };
}

/** Deletes the keys of `pattern` (SCAN + DEL) on the Redis at `url`. */
export async function deleteRedisKeys(url: string, pattern: string): Promise<void> {
  const r = new Redis(url, { maxRetriesPerRequest: 1, lazyConnect: true });
  try {
    await r.connect();
    let cursor = '0';
    do {
      const [next, keys] = await r.scan(cursor, 'MATCH', pattern, 'COUNT', 1000);
      cursor = next;
      if (keys.length) await r.del(...keys);
    } while (cursor !== '0');
  } finally {
    r.disconnect();
  }
}
