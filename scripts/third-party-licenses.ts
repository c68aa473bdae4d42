// The license notices of third-party code copied into a bundle (scripts/bundle.ts bundles fastify,
// zod, ioredis, the NATS client... into each service; the panel's page bundles Preact): their
// licenses (MIT, ISC, Apache-2.0, BSD) ask that the notice travel with every copy, and the images
// ship the bundles without those packages' own files. Written beside each bundle as
// THIRD_PARTY_LICENSES.txt.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Metafile } from 'esbuild';

/** `.../node_modules/<name>` or `.../node_modules/@scope/<name>` of a bundled input file, if any. */
export function packageDirOf(file: string): string | undefined {
  const parts = file.split(/[\\/]/);
  const at = parts.lastIndexOf('node_modules');
  if (at < 0 || at + 1 >= parts.length) return undefined;
  const end = parts[at + 1].startsWith('@') ? at + 3 : at + 2;
  return end <= parts.length ? parts.slice(0, end).join('/') : undefined;
}

const LICENSE_FILE = /^(licen[cs]e|copying)(\.(md|txt|markdown))?$/i;

/**
 * One notice per third-party package whose files went into the bundle: name, version, declared
 * license and its license file's text (or, without one, where the package declares it). Sorted by
 * name, so the text changes only when what is bundled changes.
 */
export function thirdPartyNotices(meta: Metafile, root: string): string {
  const dirs = new Set<string>();
  for (const input of Object.keys(meta.inputs)) {
    const dir = packageDirOf(path.resolve(root, input.replace(/^[a-z-]+:/, '')));
    if (dir) dirs.add(dir);
  }
  const notices = [...dirs]
    .map((dir) => {
      const pkg = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as {
        name: string;
        version: string;
        license?: string;
      };
      const file = readdirSync(dir).find((f) => LICENSE_FILE.test(f));
      const text = file
        ? readFileSync(path.join(dir, file), 'utf8').trim()
        : `(no license file in the package; package.json declares: ${pkg.license ?? 'nothing'})`;
      return { name: pkg.name, body: `${pkg.name}@${pkg.version} (${pkg.license ?? 'unknown'})\n\n${text}` };
    })
    .sort((a, b) => a.name.localeCompare(b.name));
  const unique = [...new Map(notices.map((n) => [n.body, n])).values()];
  return `${unique.map((n) => n.body).join(`\n\n${'-'.repeat(72)}\n\n`)}\n`;
}
