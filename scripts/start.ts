// `pnpm start`: the whole stack in the foreground, one process per service (as in production),
// each run from its bundle (built first), migrations applied by each service at start.
// Ctrl-C stops everything.
//
// The bus is never open: with NATS_URL unset, a nats-server of its own is started on 127.0.0.1
// (START_NATS_PORT, default 4223; JetStream in .data/nats) with the secured configuration of
// deploy/nats (libs/bus/src/permissions.ts) and fresh random passwords, one per service, handed to
// each child only. With NATS_URL set, each child gets NATS_USER=<service> and the password from
// NATS_PASSWORD_<SERVICE> when set (the variables docker-compose.yml's nats reads).
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { BUS_IDENTITIES, type BusIdentity, natsServerConfig } from '@od/bus';
import { findNatsServer, type RunningNats, startNatsServer } from './lib/nats-server.ts';
import { passwordVar } from './nats-config.ts';
import { NODE_FLAGS, OPS_PORTS, PROCESS_ENV, ROOT, SERVICES } from './services.ts';

const children: ChildProcess[] = [];
let stopping = false;
let nats: RunningNats | undefined;
const busEnv: Partial<Record<BusIdentity, Record<string, string>>> = {};

/** The bus of this run: our own secured nats-server unless NATS_URL points at one. */
async function startBus(): Promise<void> {
  if (process.env.NATS_URL) {
    for (const id of BUS_IDENTITIES) {
      const pw = process.env[passwordVar(id)];
      if (pw) busEnv[id] = { NATS_USER: id, NATS_PASSWORD: pw };
    }
    return;
  }
  const bin = findNatsServer();
  if (!bin) {
    console.error(
      'pnpm start runs its own secured nats-server and none was found: install nats-server (or set ' +
        'NATS_SERVER_BIN), or set NATS_URL to a secured server and NATS_PASSWORD_<SERVICE> (deploy/nats/README.md).',
    );
    process.exit(2);
  }
  const passwords = Object.fromEntries(
    BUS_IDENTITIES.map((id) => [id, randomBytes(24).toString('base64url')]),
  );
  const port = Number(process.env.START_NATS_PORT ?? 4223);
  nats = await startNatsServer({
    bin,
    dir: path.join(ROOT, '.data', 'nats'),
    port,
    config: (storeDir) =>
      natsServerConfig({
        prefix: process.env.NATS_PREFIX ?? 'od',
        listen: `127.0.0.1:${port}`,
        storeDir,
        passwords: passwords as Record<BusIdentity, string>,
      }),
  });
  for (const id of BUS_IDENTITIES)
    busEnv[id] = { NATS_URL: nats.url, NATS_USER: id, NATS_PASSWORD: passwords[id] };
  console.log(`nats-server (secured, one identity per service) on ${nats.url}`);
}

function run(name: (typeof SERVICES)[number]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...NODE_FLAGS, path.join(ROOT, 'services', name, 'bin.mjs')], {
      env: {
        ...PROCESS_ENV,
        ...process.env,
        ...busEnv[name],
        OD_DIST: '1',
        OPS_PORT: String(OPS_PORTS[name] ?? 0),
        OPS_HOST: '127.0.0.1',
      },
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    });
    children.push(child);
    child.on('message', (m: { type?: string }) => {
      if (m?.type === 'ready') resolve();
    });
    const pipe = (stream: NodeJS.ReadableStream, out: NodeJS.WriteStream) => {
      let buf = '';
      stream.on('data', (d: Buffer) => {
        buf += d.toString();
        let i = buf.indexOf('\n');
        while (i >= 0) {
          const line = buf.slice(0, i);
          out.write(`${name.padEnd(8)}| ${line}\n`);
          buf = buf.slice(i + 1);
          i = buf.indexOf('\n');
        }
      });
    };
    pipe(child.stdout!, process.stdout);
    pipe(child.stderr!, process.stderr);
    child.on('exit', (code) => {
      if (!stopping) {
        console.error(`${name} exited with ${code}; stopping the stack`);
        shutdown(1);
      }
      reject(new Error(`${name} exited`));
    });
  });
}

function shutdown(code = 0) {
  if (stopping) return;
  stopping = true;
  for (const c of children) c.kill('SIGTERM');
  setTimeout(() => {
    void nats?.stop();
    process.exit(code);
  }, 3000).unref();
  Promise.all(children.map((c) => new Promise((r) => (c.exitCode !== null ? r(null) : c.on('exit', r)))))
    .then(() => nats?.stop())
    .then(() => process.exit(code));
}
process.on('SIGINT', () => shutdown(0));
process.on('SIGTERM', () => shutdown(0));

execFileSync(process.execPath, ['--import', 'tsx', path.join(ROOT, 'scripts', 'build.ts')], {
  stdio: 'inherit',
});
await startBus();
// services that own a schema start one after the other (migrations), the gateway last
for (const s of SERVICES) await run(s);
console.log('stack started');
