// The merchant panel's page: Preact + TypeScript bundled by esbuild into services/panel/dist/web
// (app.js, app.css), served by the panel service. `pnpm build` runs it once (minified);
// `pnpm --filter @od/panel dev` (scripts/panel-dev.ts) rebuilds on every change.
import path from 'node:path';
import { type BuildOptions, build, context, type Metafile } from 'esbuild';
import { ROOT } from './services.ts';

const PANEL_WEB_SRC = path.join(ROOT, 'services', 'panel', 'web', 'src');
export const PANEL_WEB_OUT = path.join(ROOT, 'services', 'panel', 'dist', 'web');

function options(outdir: string, dev: boolean): BuildOptions {
  return {
    entryPoints: {
      app: path.join(PANEL_WEB_SRC, 'main.tsx'),
      'app-style': path.join(PANEL_WEB_SRC, 'app.css'),
    },
    entryNames: '[name]',
    outdir,
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: ['chrome110', 'firefox115', 'safari16'],
    jsx: 'automatic',
    jsxImportSource: 'preact',
    minify: !dev,
    sourcemap: dev ? 'inline' : false,
    legalComments: 'none',
    logLevel: 'warning',
    plugins: [
      {
        // one stylesheet, named app.css
        name: 'css-name',
        setup(b) {
          b.onEnd(async () => {
            const { rename } = await import('node:fs/promises');
            await rename(path.join(outdir, 'app-style.css'), path.join(outdir, 'app.css')).catch(() => {});
          });
        },
      },
    ],
  };
}

/** Builds the page once; returns esbuild's metafile (every input and output, with sizes). */
export async function buildPanelWeb(outdir = PANEL_WEB_OUT): Promise<Metafile> {
  const r = await build({ ...options(outdir, false), metafile: true });
  return r.metafile;
}

/** Rebuilds on every change of the page's sources (the panel reloads the page in development). */
export async function watchPanelWeb(outdir = PANEL_WEB_OUT) {
  const ctx = await context(options(outdir, true));
  await ctx.watch();
  return ctx;
}
