import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { asciiComments, bundleOptions } from '../scripts/bundle.ts';

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
