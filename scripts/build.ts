// `pnpm build`: bundles each service (its code and our libs) into services/<name>/dist/main.mjs,
// third-party packages left as imports (scripts/bundle.ts). Production and benchmarks run the
// bundle: no TypeScript loader in the process (tsx costs ~35 MB of RSS and start time per service).
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';
import { asciiComments, bundleDir, bundleOptions } from './bundle.ts';
import { buildPanelWeb } from './panel-web.ts';
import { SERVICES } from './services.ts';

const started = Date.now();
// chunk names carry a hash: the chunks of an earlier build would pile up
for (const s of SERVICES) rmSync(path.join(bundleDir(s), 'chunks'), { recursive: true, force: true });
await Promise.all(SERVICES.map((s) => build(bundleOptions(s))));
for (const s of SERVICES)
  for (const f of readdirSync(bundleDir(s), { recursive: true, encoding: 'utf8' }).filter((x) =>
    x.endsWith('.mjs'),
  )) {
    const file = path.join(bundleDir(s), f);
    const text = readFileSync(file, 'utf8');
    const ascii = asciiComments(text);
    if (ascii !== text) writeFileSync(file, ascii);
  }
// the image's entry point (deploy/Dockerfile): runs the bundle without the workspace launcher
for (const s of SERVICES)
  writeFileSync(
    path.join(bundleDir(s), 'start.mjs'),
    "import { main } from './main.mjs';\n\nawait main();\n",
  );
await buildPanelWeb();
console.log(`built ${SERVICES.length} services in ${Date.now() - started} ms`);
