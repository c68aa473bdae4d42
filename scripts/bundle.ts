import path from 'node:path';
import type { BuildOptions, Metafile, Plugin } from 'esbuild';
import { ROOT } from './services.ts';

/**
 * Packages bundled although third-party: pure JavaScript that every service loads at start, whose
 * source text V8 keeps (docs/operations.md, "Memory"): bundled, only what is used goes in and
 * without comments or indentation (zod's ~1.3 MB of module text, ~2 MB of heap per process).
 * fastify-type-provider-zod goes with zod (one zod per process: its schema registry is global) and
 * brings its only import, @fastify/error. A service lists them as devDependencies.
 */
export const BUNDLED_THIRD_PARTY = ['zod', 'fastify-type-provider-zod', '@fastify/error'];

const bundled = (p: string) =>
  p.startsWith('@od/') ||
  p.startsWith('node:') ||
  p.startsWith('@prisma/client') ||
  BUNDLED_THIRD_PARTY.some((b) => p === b || p.startsWith(`${b}/`));

/**
 * Our workspace packages (@od/*) and relative imports are bundled; every other package stays external,
 * except Prisma's client runtime: bundled, only the PostgreSQL query compiler the generated client
 * imports goes in, instead of 70 MB of runtimes for every database in each image; and
 * BUNDLED_THIRD_PARTY.
 */
const externalThirdParty: Plugin = {
  name: 'external-third-party',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) =>
      bundled(args.path) ? undefined : { path: args.path, external: true },
    );
  },
};

/**
 * esbuild options of one service's bundle (services/<name>/dist/main.mjs). What is memory:
 * - `splitting`: a dynamic `import()` becomes a chunk (dist/chunks/) loaded when first called. Prisma's
 *   query compiler (2.3 MB of base64 wasm) stays out of a process until its first Prisma query.
 * - ASCII only: V8 keeps every module's source in the heap, as one byte per character only while the
 *   whole text is ASCII; one `§` in a kept comment doubled a 2.9 MB bundle to 5.7 MB. `charset`
 *   escapes strings and identifiers, `asciiComments` (after the build) what esbuild keeps of comments.
 * - Whitespace and syntax minified (names kept: stack traces stay readable, the source map maps them
 *   back): the text V8 keeps shrinks by ~40 % (orders' bundle 650 -> 390 KB).
 */
export function bundleOptions(service: string): BuildOptions {
  return {
    entryPoints: [path.join(ROOT, 'services', service, 'src', 'main.ts')],
    outdir: bundleDir(service),
    entryNames: '[name]',
    chunkNames: 'chunks/[name]-[hash]',
    outExtension: { '.js': '.mjs' },
    splitting: true,
    charset: 'ascii',
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
    minifyWhitespace: true,
    minifySyntax: true,
    logLevel: 'warning',
  };
}

/**
 * The text of a bundle built with `charset: 'ascii'`, its comments made ASCII too: what is left
 * outside ASCII after that option is in comments, so `\uXXXX` there changes no code.
 */
export function asciiComments(text: string): string {
  return text.replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** Where a service's bundle goes: main.mjs, chunks/ (emptied by `pnpm build`), start.mjs. */
export function bundleDir(service: string): string {
  return path.join(ROOT, 'services', service, 'dist');
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
