// `pnpm start`: the whole stack in the foreground, one process per service (as in production),
// each run from its bundle (built first), migrations applied by each service at start.
// Ctrl-C stops everything.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import path from 'node:path';
import { OPS_PORTS, ROOT, SERVICES } from './services.ts';

const children: ChildProcess[] = [];
let stopping = false;

function run(name: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(ROOT, 'services', name, 'bin.mjs')], {
      env: { ...process.env, OD_DIST: '1', OPS_PORT: String(OPS_PORTS[name] ?? 0), OPS_HOST: '127.0.0.1' },
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
  setTimeout(() => process.exit(code), 3000).unref();
  Promise.all(
    children.map((c) => new Promise((r) => (c.exitCode !== null ? r(null) : c.on('exit', r)))),
  ).then(() => process.exit(code));
}
process.on('SIGINT', () => shutdown(0));
process.on('SIGTERM', () => shutdown(0));

execFileSync(process.execPath, ['--import', 'tsx', path.join(ROOT, 'scripts', 'build.ts')], {
  stdio: 'inherit',
});
// services that own a schema start one after the other (migrations), the gateway last
for (const s of SERVICES) await run(s);
console.log('stack started');
