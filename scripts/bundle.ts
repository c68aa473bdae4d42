import { readFile } from 'node:fs/promises';
import { isBuiltin } from 'node:module';
import path from 'node:path';
import { type BuildOptions, type Metafile, type Plugin, transform } from 'esbuild';
import { ROOT } from './services.ts';

/**
 * Packages bundled although third-party: pure JavaScript that a service loads at start, whose
 * source text V8 keeps (docs/operations.md, "Memory"): bundled, only what is used goes in, without
 * comments or indentation, and as one module instead of hundreds (each CommonJS file also costs its
 * wrapper function, module object and path strings). zod's ~1.3 MB of module text was ~2 MB of heap
 * per process; fastify, its plugins, ioredis, the NATS client and prom-client (~360 files in the
 * gateway) were 2.5 MB of RSS in the idle gateway (84.7 -> 82.2) and 1.7 in the panel, same run.
 * fastify-type-provider-zod goes with zod (one zod per process: its schema registry is global).
 * What a bundled package imports is bundled with it (fastify's avvio, find-my-way, ajv...), except
 * KEPT_EXTERNAL. A service lists these as devDependencies; their license notices travel in
 * dist/THIRD_PARTY_LICENSES.txt (scripts/third-party-licenses.ts, written by `pnpm build`). Bundled, ioredis cannot read its own
 * package.json (no `__dirname` in an ES module): it sends `CLIENT SETINFO LIB-VER
 * error-fetching-version`, which only shows in Redis's `CLIENT LIST`.
 */
export const BUNDLED_THIRD_PARTY = [
  'zod',
  'fastify-type-provider-zod',
  'fastify',
  '@fastify/cors',
  '@fastify/jwt',
  'fast-jwt',
  'ioredis',
  'uuid',
  'ipaddr.js',
  'prom-client',
  '@nats-io/transport-node',
  '@nats-io/jetstream',
  '@nats-io/kv',
];

/**
 * Never bundled, even when a bundled package imports them: pino (its transports run files by path
 * in worker threads; fastify imports it), and what a service imports itself and keeps external, so
 * that a process holds one copy.
 */
export const KEPT_EXTERNAL = ['pino', '@opentelemetry/api', 'pg'];

const packageOf = (p: string) =>
  p
    .split('/')
    .slice(0, p.startsWith('@') ? 2 : 1)
    .join('/');
const inNodeModules = (file: string) => file.split(path.sep).includes('node_modules');

const bundled = (p: string, importer: string) =>
  p.startsWith('@od/') ||
  p.startsWith('node:') ||
  p.startsWith('@prisma/client') ||
  BUNDLED_THIRD_PARTY.includes(packageOf(p)) ||
  (inNodeModules(importer) && !KEPT_EXTERNAL.includes(packageOf(p)));

/**
 * Our workspace packages (@od/*) and relative imports are bundled; every other package stays external,
 * except Prisma's client runtime: bundled, only the PostgreSQL query compiler the generated client
 * imports goes in, instead of 70 MB of runtimes for every database in each image; and
 * BUNDLED_THIRD_PARTY with what they import.
 */
const externalThirdParty: Plugin = {
  name: 'external-third-party',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) =>
      bundled(args.path, args.importer) ? undefined : { path: args.path, external: true },
    );
  },
};

/**
 * Node built-ins whose loading costs memory that an idle service need not pay:
 * - `node:http` through `require`, not as an ES module: node's ES module of a built-in reads every
 *   export, and `http`'s WebSocket, CloseEvent and MessageEvent are getters that load undici (node's
 *   fetch: ~0.7 MB of source text kept and its code compiled, +13 MB of RSS in a bare process). A
 *   CommonJS `require` leaves them unread until used. Every service imports it (the ops listener):
 *   -2.5 to -3 MB of idle RSS each, measured on whole stacks.
 * - `node:http2` loaded on first use when a bundled package requires it: fastify requires it at
 *   the top of its server module, and uses it only with its `http2` option, which we never set
 *   (+4.6 MB of RSS in a bare process).
 */
const LAZY_IN_THIRD_PARTY = /^(node:)?http2$/;

const builtinsOnDemand: Plugin = {
  name: 'builtins-on-demand',
  setup(b) {
    b.onResolve({ filter: /^(node:)?http$/ }, (args) =>
      args.kind === 'import-statement' ? { path: 'node:http', namespace: 'required-builtin' } : undefined,
    );
    b.onResolve({ filter: LAZY_IN_THIRD_PARTY }, (args) =>
      args.kind === 'require-call' && inNodeModules(args.importer)
        ? { path: `node:${args.path.replace(/^node:/, '')}`, namespace: 'lazy-builtin' }
        : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'required-builtin' }, (args) => ({
      contents: `module.exports = require(${JSON.stringify(args.path)});`,
      loader: 'js',
    }));
    b.onLoad({ filter: /.*/, namespace: 'lazy-builtin' }, (args) => ({
      contents: `let m; module.exports = new Proxy({}, { get: (_, k) => (m ??= require(${JSON.stringify(args.path)}))[k] });`,
      loader: 'js',
    }));
  },
};

/**
 * A bundled third-party file with its local names shortened too (what is top-level in it keeps its
 * name: the bundle refers to it), before esbuild bundles it: ~0.3 MB less text kept in the gateway
 * and the panel. Our own code keeps its names (readable stack traces); the inline source map
 * carries the third-party names into the bundle's map.
 */
const thirdPartyNamesMinified: Plugin = {
  name: 'third-party-names-minified',
  setup(b) {
    b.onLoad({ filter: /[\\/]node_modules[\\/].*\.[cm]?js$/ }, async (args) => {
      const text = await readFile(args.path, 'utf8');
      const r = await transform(text, {
        loader: 'js',
        minifyIdentifiers: true,
        sourcemap: 'inline',
        sourcefile: args.path,
      });
      return { contents: r.code, loader: 'js' };
    });
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
    plugins: [builtinsOnDemand, externalThirdParty, thirdPartyNamesMinified],
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
      if (!i.external || isBuiltin(i.path)) continue;
      const parts = i.path.split('/');
      out.add(i.path.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]);
    }
  return [...out].sort();
}
