import { readFileSync } from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import * as browser from './browser.ts';
import * as contracts from './mod.ts';

const ENTRY = path.join(import.meta.dirname, 'browser.ts');

describe('@od/contracts/browser (the panel page’s entry)', () => {
  it('bundles without zod: every module it pulls in is a contracts file that imports no zod', async () => {
    const r = await build({
      entryPoints: [ENTRY],
      bundle: true,
      write: false,
      metafile: true,
      format: 'esm',
      platform: 'browser',
      logLevel: 'silent',
    });
    const inputs = Object.keys(r.metafile.inputs);
    expect(inputs.length).toBeGreaterThan(3);
    for (const input of inputs) {
      expect(input).toMatch(/^libs\/contracts\/src\/[\w-]+\.ts$|contracts\/src\/[\w-]+\.ts$/);
      expect(readFileSync(path.resolve(input), 'utf8')).not.toMatch(/from 'zod'/);
    }
    const js = r.outputFiles[0].text;
    expect(js).not.toMatch(/zod|Zod/);
    expect(js.length).toBeLessThan(16 * 1024);
  });

  it('its values are the very ones the schemas use (one definition)', () => {
    const all = new Map(Object.entries(contracts));
    for (const [name, value] of Object.entries(browser)) expect(all.get(name), name).toBe(value);
    expect(browser.SITUATIONS).toContain('PENDING');
    expect(browser.PANEL_PASSWORD_MIN).toBe(12);
    expect(browser.PANEL_SCOPES.map((s) => s.scope)).toEqual([...browser.SCOPES]);
  });

  it('the role rule: STAFF runs orders, menu and the store view; OWNER everything', () => {
    const staff = browser.PANEL_AREAS.filter((a) => browser.canReach('STAFF', a));
    expect(staff).toEqual(['orders', 'menu', 'store']);
    expect(browser.PANEL_AREAS.every((a) => browser.canReach('OWNER', a))).toBe(true);
  });
});
