import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { BenchContext, Scenario } from './types.ts';

const ORDER = ['feed-', 'orders-', 'webhook-', 'limiter'];
const rank = (f: string) => {
  const i = ORDER.findIndex((p) => f.startsWith(p));
  return i < 0 ? ORDER.length : i;
};

function isScenario(v: unknown): v is Scenario {
  return !!v && typeof v === 'object' && typeof (v as Scenario).run === 'function';
}

/**
 * Scenarios contributed by `bench/*.ts` files (everything but run.ts): `scenarios` (array),
 * `scenario`, a default export, or exported functions named `bench*` taking the context.
 */
export async function discoverScenarios(
  benchDir: string,
  log: (m: string) => void,
): Promise<{ file: string; scenarios: Scenario[] }[]> {
  const files = readdirSync(benchDir)
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts') && !f.endsWith('.d.ts') && f !== 'run.ts')
    .sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
  const found: { file: string; scenarios: Scenario[] }[] = [];
  for (const file of files) {
    // a standalone script without exports would run its own main as a side effect of the import
    if (!/^export\s/m.test(readFileSync(path.join(benchDir, file), 'utf8'))) {
      log(`- bench/${file}: no exports (a standalone script, run it with npx tsx), skipped`);
      continue;
    }
    let mod: Record<string, unknown>;
    try {
      mod = await import(pathToFileURL(path.join(benchDir, file)).href);
    } catch (e) {
      log(`! bench/${file} failed to load: ${(e as Error).message}`);
      continue;
    }
    const list: Scenario[] = [];
    const add = (v: unknown, name: string) => {
      if (Array.isArray(v)) {
        for (const [i, x] of v.entries()) add(x, `${name}[${i}]`);
      } else if (isScenario(v)) list.push(v);
      else if (typeof v === 'function' && v.length <= 1)
        list.push({
          name: `${file.replace(/\.ts$/, '')}: ${name}`,
          run: v as (c: BenchContext) => Promise<unknown>,
        });
    };
    if (mod.scenarios) add(mod.scenarios, 'scenarios');
    if (mod.scenario) add(mod.scenario, 'scenario');
    if (mod.default) add(mod.default, 'default');
    for (const [k, v] of Object.entries(mod)) if (/^bench/.test(k) && typeof v === 'function') add(v, k);
    if (list.length) found.push({ file, scenarios: list });
    else log(`! bench/${file} exports no scenario (scenarios, scenario, default, or bench* functions)`);
  }
  return found;
}
