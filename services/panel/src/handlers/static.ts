import { createHash } from 'node:crypto';
import { existsSync, readFileSync, watch } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, gzip } from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { PanelContext, PanelRoutes } from '../context.ts';

interface Asset {
  type: string;
  raw: Buffer;
  hash: string;
  /**
   * compressed on first request (brotli at quality 11 takes ~10 MB of buffers, which glibc keeps),
   * on libuv's threads: the event loop goes on serving meanwhile
   */
  encoded(encoding: 'br' | 'gzip'): Promise<Buffer>;
}

const compress = { br: promisify(brotliCompress), gzip: promisify(gzip) };

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
};

function load(file: string): Asset | null {
  if (!existsSync(file)) return null;
  const raw = readFileSync(file);
  const encoded: Partial<Record<'br' | 'gzip', Promise<Buffer>>> = {};
  return {
    type: TYPES[path.extname(file)] ?? 'application/octet-stream',
    raw,
    hash: createHash('sha256').update(raw).digest('hex').slice(0, 12),
    encoded: (encoding) =>
      (encoded[encoding] ??= (encoding === 'br' ? compress.br(raw) : compress.gzip(raw, { level: 9 })).catch(
        (e) => {
          delete encoded[encoding]; // tried again by the next request
          throw e;
        },
      )),
  };
}

const CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: https:",
  "connect-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'self'",
].join('; ');

function page(assets: Record<string, Asset | null>, dev: boolean): string {
  const v = (name: string) => assets[name]?.hash ?? '0';
  return `<!doctype html>
<html lang="pt-BR">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Painel do estabelecimento</title>
<link rel="stylesheet" href="/panel/assets/app.css?v=${v('app.css')}">
</head>
<body${dev ? ' data-dev="1"' : ''}>
<div id="app"></div>
<script type="module" src="/panel/assets/app.js?v=${v('app.js')}"></script>
</body>
</html>`;
}

/**
 * The page: `/panel/` (and any non-API path under it, for the page's own routes) answers the HTML
 * shell; `/panel/assets/app.{js,css}` the bundle built by `pnpm build` (services/panel/dist/web),
 * served brotli or gzip compressed. Outside production the files are re-read when they change and
 * `/panel/dev/reload` (SSE) tells the page to reload (the `pnpm --filter @od/panel dev` watch).
 */
export function staticRoutes(webDir: string): PanelRoutes {
  return (app, ctx: PanelContext) => {
    const dev = ctx.base.config.NODE_ENV === 'development';
    const names = ['app.js', 'app.css'];
    const assets: Record<string, Asset | null> = {};
    let version = 0;
    const reload = () => {
      for (const n of names) assets[n] = load(path.join(webDir, n));
      version++;
    };
    reload();
    const reloaders = new Set<() => void>();
    if (dev && existsSync(webDir)) {
      let timer: NodeJS.Timeout | undefined;
      const w = watch(webDir, () => {
        clearTimeout(timer);
        timer = setTimeout(() => {
          reload();
          for (const r of reloaders) r();
        }, 100);
      });
      app.addHook('onClose', async () => w.close());
    }

    const sendAsset = async (request: FastifyRequest<{ Params: { name: string } }>, reply: FastifyReply) => {
      const a = assets[request.params.name];
      if (!a) return reply.code(404).type('text/plain').send('not built: run `pnpm build`');
      const accept = String(request.headers['accept-encoding'] ?? '');
      reply.type(a.type).header('Vary', 'Accept-Encoding');
      reply.header('Cache-Control', dev ? 'no-cache' : 'public, max-age=31536000, immutable');
      if (/\bbr\b/.test(accept)) return reply.header('Content-Encoding', 'br').send(await a.encoded('br'));
      if (/\bgzip\b/.test(accept))
        return reply.header('Content-Encoding', 'gzip').send(await a.encoded('gzip'));
      return reply.send(a.raw);
    };
    app.get<{ Params: { name: string } }>('/panel/assets/:name', sendAsset);

    const shell = (_request: FastifyRequest, reply: FastifyReply) =>
      reply
        .type('text/html; charset=utf-8')
        .header('Cache-Control', 'no-store')
        .header('Content-Security-Policy', CSP)
        .send(page(assets, dev));
    // the address a merchant is given is often just the host: the root leads to the page
    app.get('/', (_request, reply) => reply.redirect('/panel/'));
    app.get('/panel', (_request, reply) => reply.redirect('/panel/'));
    app.get('/panel/', shell);
    app.get('/panel/setup', shell);
    app.get('/panel/s/*', shell);

    if (dev) {
      app.get('/panel/dev/reload', (request, reply) => {
        reply.hijack();
        reply.raw.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-store' });
        reply.raw.write(`data: ${version}\n\n`);
        const fn = () => reply.raw.write(`data: ${version}\n\n`);
        reloaders.add(fn);
        request.raw.on('close', () => reloaders.delete(fn));
      });
    }
  };
}
