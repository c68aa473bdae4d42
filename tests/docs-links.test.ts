import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '..');

/** A markdown text without its fenced code blocks. */
const withoutFences = (md: string) => md.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '');

/** Link targets of a markdown text: inline links and images, reference definitions, autolinks, HTML. */
function linkTargets(md: string): string[] {
  const text = withoutFences(md).replace(/`[^`\n]*`/g, ''); // code spans
  const out: string[] = [];
  for (const m of text.matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) out.push(m[1]);
  for (const m of text.matchAll(/^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/gm)) out.push(m[1]);
  for (const m of text.matchAll(/<([a-z][a-z0-9+.-]*:[^>\s]+)>/gi)) out.push(m[1]);
  for (const m of text.matchAll(/\b(?:href|src)\s*=\s*["']([^"']+)["']/gi)) out.push(m[1]);
  return out;
}

/** Why a link of `file` (repo-relative) points outside the repository, or null when it does not. */
function outsideReason(file: string, target: string): string | null {
  if (/^[a-z][a-z0-9+.-]*:/i.test(target)) return 'external URL (mention it as plain text instead)';
  if (target.startsWith('#')) return null;
  const rel = decodeURIComponent(target.split('#')[0].split('?')[0]);
  if (rel.startsWith('/')) return 'absolute path';
  const abs = path.resolve(ROOT, path.dirname(file), rel);
  if (abs !== ROOT && !abs.startsWith(ROOT + path.sep)) return 'leaves the repository';
  if (!existsSync(abs)) return 'no such file in the repository';
  return null;
}

function markdownFiles(): string[] {
  const out = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '*.md'], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  return out
    .split('\n')
    .filter(Boolean)
    .filter((f) => existsSync(path.join(ROOT, f)));
}

describe('documentation links stay inside the repository', () => {
  it('the checker finds every kind of outside link (and nothing else)', () => {
    const md = [
      'See [spec](../shared/spec/SPEC.md), [site](https://example.com), <https://x.example>,',
      '[ok](docs/api.md), [anchor](#limits), ![img](/etc/passwd) and',
      '[ref]: http://r.example',
      '[missing](docs/nope.md) <a href="mailto:a@b.c">mail</a> `[code](https://in.code.span)`',
      '```',
      '[fenced](https://in.a.fence)',
      '```',
    ].join('\n');
    const found = linkTargets(md).map((t) => [t, outsideReason('README.md', t)]);
    expect(found).toEqual([
      ['../shared/spec/SPEC.md', 'leaves the repository'],
      ['https://example.com', 'external URL (mention it as plain text instead)'],
      ['docs/api.md', null],
      ['#limits', null],
      ['/etc/passwd', 'absolute path'],
      ['docs/nope.md', 'no such file in the repository'],
      ['http://r.example', 'external URL (mention it as plain text instead)'],
      ['https://x.example', 'external URL (mention it as plain text instead)'],
      ['mailto:a@b.c', 'external URL (mention it as plain text instead)'],
    ]);
  });

  it('no markdown file of the repository links outside it', () => {
    const files = markdownFiles();
    expect(files).toContain('README.md');
    const problems: string[] = [];
    for (const f of files) {
      for (const t of linkTargets(readFileSync(path.join(ROOT, f), 'utf8'))) {
        const why = outsideReason(f, t);
        if (why) problems.push(`${f}: ${t} (${why})`);
      }
    }
    expect(problems).toEqual([]);
  });
});

/**
 * Repository paths a markdown text names in code spans: `services/orders/src/write.ts`, `src/main.ts`.
 * A span counts when it has no spaces, has a slash, and its first segment exists at the repository
 * root or beside the file (so `application/json` or `orders:read` are not paths). Placeholders
 * (`<name>`, `*`, `{id}`, `...`, `$VAR`) are skipped; `#anchor` and `:line` suffixes are dropped.
 */
function namedPaths(md: string): string[] {
  const text = withoutFences(md);
  const out: string[] = [];
  for (const m of text.matchAll(/`([^`\n]+)`/g)) {
    const span = m[1].trim();
    if (!/^\.{0,2}\/?[\w.@-]+(\/[\w.@-]*)+$/.test(span) || span.startsWith('/')) continue;
    if (/[<>*{}$]|\.\.\./.test(span)) continue;
    out.push(span.replace(/#.*$/, '').replace(/:\d+$/, ''));
  }
  return out;
}

/**
 * Paths a page may name that are not in the tree: built or generated at run time (git-ignored),
 * or written by a command the page describes.
 */
const NOT_IN_TREE = [
  /(^|\/)dist(\/|$)/,
  /(^|\/)generated(\/|$)/,
  /(^|\/)node_modules(\/|$)/,
  /^bench\/results\//,
  /^libs\/client\/api-docs(\/|$)/, // the SDK's HTML API page (pnpm --filter @od/client run docs)
  /^scripts\/chaos\/results\//,
  /(^|\/)test-results\.json$/,
  /(^|\/)\.env$/,
  /^\.data\//, // local JetStream and database files (scripts/start.ts)
];

/** Why a path that `file` (repo-relative) names does not exist, or null when it does (or is not a path). */
function missingPath(file: string, named: string): string | null {
  const first = named.replace(/^\.\//, '').split('/')[0];
  const fromRoot = path.resolve(ROOT, named);
  const fromFile = path.resolve(ROOT, path.dirname(file), named);
  const base = /^\.\.?\//.test(named)
    ? fromFile
    : existsSync(path.join(ROOT, first))
      ? fromRoot
      : existsSync(path.join(ROOT, path.dirname(file), first))
        ? fromFile
        : null;
  if (!base) return null; // not a repository path (a MIME type, a subject...)
  const rel = path.relative(ROOT, base);
  if (NOT_IN_TREE.some((r) => r.test(rel))) return null;
  return existsSync(base) || existsSync(fromRoot) || existsSync(fromFile) ? null : rel;
}

describe('documentation names files that exist', () => {
  it('the checker finds a missing path and skips what is not a path', () => {
    const md = [
      '`services/orders/src/write.ts` `services/orders/src/nope.ts` `application/json` `orders:read`',
      '`services/<name>/src` `libs/*/src/mod.ts` `services/gateway/dist/main.mjs` `docs/api.md#limits`',
      '```',
      '`services/in/a/fence.ts`',
      '```',
    ].join('\n');
    const found = namedPaths(md)
      .map((p) => missingPath('README.md', p))
      .filter(Boolean);
    expect(found).toEqual(['services/orders/src/nope.ts']);
  });

  it('every repository path a README or docs page names in a code span exists', () => {
    const problems: string[] = [];
    for (const f of markdownFiles()) {
      if (f === 'CHANGELOG.md') continue; // history: names what existed then
      for (const p of namedPaths(readFileSync(path.join(ROOT, f), 'utf8'))) {
        const missing = missingPath(f, p);
        if (missing) problems.push(`${f}: \`${p}\``);
      }
    }
    expect(problems).toEqual([]);
  });
});
