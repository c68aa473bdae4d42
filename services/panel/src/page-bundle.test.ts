import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { buildPanelWeb } from '../../../scripts/panel-web.ts';

/** README "The page": limit 250 KB of compressed JavaScript on first load. */
const BUDGET_BROTLI = 250 * 1024;

describe("the panel page's bundle", () => {
  const out = mkdtempSync(path.join(tmpdir(), 'od-panel-web-'));
  afterAll(() => rmSync(out, { recursive: true, force: true }));

  it('takes the contracts from @od/contracts/browser only: no zod, within the size budget', async () => {
    const meta = await buildPanelWeb(out);
    const inputs = Object.keys(meta.inputs);
    const contracts = inputs.filter((i) => i.includes('contracts/src/'));
    // the page does use the contracts (codes, role rule), and nothing of them that needs zod
    expect(contracts).toContain('libs/contracts/src/codes.ts');
    expect(inputs.filter((i) => /node_modules\/(\.pnpm\/)?zod/.test(i) || i.includes('/zod/'))).toEqual([]);
    for (const file of contracts) expect(readFileSync(file, 'utf8'), file).not.toMatch(/from 'zod'/);
    const js = readFileSync(path.join(out, 'app.js'));
    expect(js.toString('utf8')).not.toMatch(/\$?ZodType|ZodError/);
    const brotli = brotliCompressSync(js).length;
    expect(brotli).toBeLessThanOrEqual(BUDGET_BROTLI);
    console.info(`panel page: app.js ${js.length} bytes, ${brotli} brotli`);
  }, 60_000);
});
