import { readFileSync } from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { bundleOptions, externalPackages } from '../scripts/bundle.ts';
import { ROOT, SERVICES } from '../scripts/services.ts';

/**
 * Each service's image holds only its own package.json dependencies (`pnpm deploy --prod`): they
 * must be exactly the third-party packages its bundle imports, no missing one (the image would not
 * start) and no extra one (the image would grow).
 */
describe('per-service dependencies', () => {
  for (const s of SERVICES)
    it(`${s} declares exactly what its bundle imports`, async () => {
      const r = await build({ ...bundleOptions(s), write: false, metafile: true, sourcemap: false });
      const pkg = JSON.parse(readFileSync(path.join(ROOT, 'services', s, 'package.json'), 'utf8'));
      expect(Object.keys(pkg.dependencies ?? {}).sort()).toEqual(externalPackages(r.metafile));
      // workspace libs are bundled: never a run-time dependency
      expect(Object.keys(pkg.dependencies ?? {}).filter((d) => d.startsWith('@od/'))).toEqual([]);
      // a package is either bundled or imported, never both (one copy per process)
      const bundledPackages = new Set(
        Object.keys(r.metafile.inputs).flatMap((f) => {
          const m = /node_modules\/(?:\.pnpm\/[^/]+\/node_modules\/)?((?:@[^/]+\/)?[^/]+)/.exec(f);
          return m ? [m[1]] : [];
        }),
      );
      expect(externalPackages(r.metafile).filter((p) => bundledPackages.has(p))).toEqual([]);
    });
});
