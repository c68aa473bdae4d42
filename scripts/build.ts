// `pnpm build`: bundles each service (its code and our libs) into services/<name>/dist/main.mjs,
// third-party packages left as imports (scripts/bundle.ts). Production and benchmarks run the
// bundle: no TypeScript loader in the process (tsx costs ~35 MB of RSS and start time per service).
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';
import { bundleOptions } from './bundle.ts';
import { buildPanelWeb } from './panel-web.ts';
import { ROOT, SERVICES } from './services.ts';

const started = Date.now();
await Promise.all(SERVICES.map((s) => build(bundleOptions(s))));
// the image's entry point (deploy/Dockerfile): runs the bundle without the workspace launcher
for (const s of SERVICES)
  writeFileSync(
    path.join(ROOT, 'services', s, 'dist', 'start.mjs'),
    "import { main } from './main.mjs';\n\nawait main();\n",
  );
await buildPanelWeb();
console.log(`built ${SERVICES.length} services in ${Date.now() - started} ms`);
