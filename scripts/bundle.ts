import path from 'node:path';
import type { BuildOptions, Metafile, Plugin } from 'esbuild';
import { ROOT } from './services.ts';

/**
 * Our workspace packages (@od/*) and relative imports are bundled; every other package stays external,
 * except Prisma's client runtime: bundled, only the PostgreSQL query compiler the generated client
 * imports goes in, instead of 70 MB of runtimes for every database in each image.
 */
const externalThirdParty: Plugin = {
  name: 'external-third-party',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) =>
      args.path.startsWith('@od/') || args.path.startsWith('node:') || args.path.startsWith('@prisma/client')
        ? undefined
        : { path: args.path, external: true },
    );
  },
};

/** esbuild options of one service's bundle (services/<name>/dist/main.mjs). */
export function bundleOptions(service: string): BuildOptions {
  return {
    entryPoints: [path.join(ROOT, 'services', service, 'src', 'main.ts')],
    outfile: path.join(ROOT, 'services', service, 'dist', 'main.mjs'),
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node24',
    sourcemap: 'linked',
    // bundled CommonJS (Prisma's runtime) requires node built-ins: give the ES module a require
    banner: {
      js: "import { createRequire as __odRequire } from 'node:module';\nconst require = __odRequire(import.meta.url);",
    },
    plugins: [externalThirdParty],
    logLevel: 'warning',
  };
}

/** The packages a bundle imports at run time: what the service's package.json must declare. */
export function externalPackages(meta: Metafile): string[] {
  const out = new Set<string>();
  for (const o of Object.values(meta.outputs))
    for (const i of o.imports) {
      if (!i.external || i.path.startsWith('node:')) continue;
      const parts = i.path.split('/');
      out.add(i.path.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]);
    }
  return [...out].sort();
}
