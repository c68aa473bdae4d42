// `pnpm build`: bundles each service (its code and our libs) into services/<name>/dist/main.mjs,
// third-party packages left as imports (scripts/bundle.ts). Production and benchmarks run the
// bundle: no TypeScript loader in the process (tsx costs ~35 MB of RSS and start time per service).
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';
import { asciiComments, bundleDir, bundleOptions } from './bundle.ts';
import { buildPanelWeb } from './panel-web.ts';
import { ROOT, SERVICES } from './services.ts';
import { thirdPartyNotices } from './third-party-licenses.ts';

const started = Date.now();
// chunk names carry a hash: the chunks of an earlier build would pile up
for (const s of SERVICES) rmSync(path.join(bundleDir(s), 'chunks'), { recursive: true, force: true });
const built = await Promise.all(SERVICES.map((s) => build({ ...bundleOptions(s), metafile: true })));
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
const web = await buildPanelWeb();
// the license notices of the third-party code each bundle carries (the panel's: its page's too)
SERVICES.forEach((s, i) => {
  const inputs = { ...built[i].metafile.inputs, ...(s === 'panel' ? web.inputs : {}) };
  writeFileSync(
    path.join(bundleDir(s), 'THIRD_PARTY_LICENSES.txt'),
    thirdPartyNotices({ inputs, outputs: {} }, ROOT),
  );
});
console.log(`built ${SERVICES.length} services in ${Date.now() - started} ms`);
