// `pnpm build`: bundles each service (its code and our libs) into services/<name>/dist/main.mjs,
// third-party packages left as imports. Production and benchmarks run the bundle: no TypeScript
// loader in the process (tsx costs ~35 MB of RSS and start time per service).
import path from 'node:path';
import { build, type Plugin } from 'esbuild';
import { buildPanelWeb } from './panel-web.ts';
import { ROOT, SERVICES } from './services.ts';

/** Our workspace packages (@od/*) and relative imports are bundled; every other package stays external. */
const externalThirdParty: Plugin = {
  name: 'external-third-party',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) =>
      args.path.startsWith('@od/') || args.path.startsWith('node:')
        ? undefined
        : { path: args.path, external: true },
    );
  },
};

const started = Date.now();
await Promise.all(
  SERVICES.map((s) =>
    build({
      entryPoints: [path.join(ROOT, 'services', s, 'src', 'main.ts')],
      outfile: path.join(ROOT, 'services', s, 'dist', 'main.mjs'),
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      sourcemap: 'linked',
      plugins: [externalThirdParty],
      logLevel: 'warning',
    }),
  ),
);
await buildPanelWeb();
console.log(`built ${SERVICES.length} services in ${Date.now() - started} ms`);
