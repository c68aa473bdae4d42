// `pnpm images`: what `deploy/Dockerfile` puts in each service's image, made without Docker: the
// bundles (`pnpm build`), then `pnpm deploy --prod` per service into build/images/<service>
// (bundle, migrations, the service's own third-party dependencies). Prints each size (du).
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { ROOT, SERVICES } from './services.ts';

const only = process.argv.slice(2);
const run = (cmd: string, args: string[]) =>
  execFileSync(cmd, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] }).toString();

run(process.execPath, ['--import', 'tsx', path.join(ROOT, 'scripts', 'build.ts')]);
const rows: string[] = [];
for (const s of SERVICES.filter((x) => !only.length || only.includes(x))) {
  const out = path.join(ROOT, 'build', 'images', s);
  rmSync(out, { recursive: true, force: true });
  run('pnpm', ['--filter', `@od/${s}`, 'deploy', '--prod', out]);
  for (const f of ['pnpm-lock.yaml', 'pnpm-workspace.yaml', 'bin.mjs'])
    rmSync(path.join(out, f), { force: true });
  const size = (p: string) => run('du', ['-sh', '--apparent-size', p]).split('\t')[0];
  rows.push(
    `${s.padEnd(8)} ${size(out).padStart(6)}  (node_modules ${size(path.join(out, 'node_modules'))}, dist ${size(path.join(out, 'dist'))})`,
  );
}
console.log(rows.join('\n'));
