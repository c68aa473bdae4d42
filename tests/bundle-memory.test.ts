import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { asciiComments, bundleOptions } from '../scripts/bundle.ts';
import { ROOT } from '../scripts/services.ts';

/**
 * What a bundle costs a process at start (docs/operations.md, "Memory"): what only some processes
 * use is a chunk loaded on first use, and the text V8 keeps is ASCII (one byte per character).
 */
describe('service bundles and memory', () => {
  it('comments are made ASCII, code is left alone', () => {
    expect(asciiComments('/** RFC 6749 §5.2 */ const a = "\\u00e9";')).toBe(
      '/** RFC 6749 \\u00a75.2 */ const a = "\\u00e9";',
    );
  });

  for (const s of ['orders', 'gateway'])
    it(`${s}: the entry statically imports neither the tracing SDK nor Prisma's query compiler; all ASCII`, async () => {
      const r = await build({ ...bundleOptions(s), write: false, metafile: true, sourcemap: false });
      const [, entry] = Object.entries(r.metafile.outputs).find(([, o]) => o.entryPoint)!;
      const statics = new Set<string>();
      // what the entry loads at start: its static imports, and theirs (shared chunks)
      const visit = (o: (typeof r.metafile.outputs)[string]) => {
        for (const i of o.imports)
          if (i.kind === 'import-statement' && !statics.has(i.path)) {
            statics.add(i.path);
            const chunk = Object.entries(r.metafile.outputs).find(([f]) =>
              f.endsWith(i.path.replace(/^\.\//, '')),
            );
            if (chunk) visit(chunk[1]);
          }
      };
      visit(entry);
      expect(
        [...statics].filter((p) => p.startsWith('@opentelemetry/') && p !== '@opentelemetry/api'),
      ).toEqual([]);
      expect([...statics].filter((p) => p.includes('query_compiler'))).toEqual([]);
      const dynamic = entry.imports.filter((i) => i.kind === 'dynamic-import').map((i) => i.path);
      expect(dynamic.some((p) => p.includes('provider'))).toBe(true);
      for (const f of r.outputFiles ?? []) {
        const ascii = asciiComments(f.text);
        expect(Buffer.byteLength(ascii), f.path).toBe(ascii.length);
      }
    });
});

describe('what a bundle loads of node at start', () => {
  for (const s of ['gateway', 'panel'])
    it(`${s}: importing the bundle loads neither undici (fetch) nor http2`, async () => {
      // beside the service's own dist: its node_modules resolve the external packages
      const dir = mkdtempSync(path.join(ROOT, 'services', s, '.bundle-test-'));
      try {
        await build({ ...bundleOptions(s), outdir: dir, sourcemap: false });
        const r = spawnSync(
          process.execPath,
          [
            '--input-type=module',
            '-e',
            `await import(${JSON.stringify(pathToFileURL(path.join(dir, 'main.mjs')).href)});
             console.log(JSON.stringify(process.moduleLoadList.filter((m) => /undici|http2/.test(m))));`,
          ],
          { encoding: 'utf8' },
        );
        expect(r.status, r.stderr).toBe(0);
        expect(JSON.parse(r.stdout)).toEqual([]);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
});
