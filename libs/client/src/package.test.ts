import { execFile, spawn } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { createMerchant, createOrder, startStack, type TestStack } from '@od/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const PKG = path.resolve(import.meta.dirname, '..');
/** The oldest Node.js the package supports (engines: >=20), installed by the OS. */
const NODE20 = '/usr/bin/node';

// The package as published (built by tsc, packed by pnpm with its publishConfig) on Node 20, and
// the README's first integration run exactly as written, both against a real stack.
describe('@od/client as a package', () => {
  let stack: TestStack;
  let merchantId: string;
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'od-client-'));

  const credential = async () => {
    const res = await stack.admin('POST', `/admin/v1/merchants/${merchantId}/credentials`, {
      name: 'pdv',
      scopes: ['orders:read', 'orders:write', 'merchant:read', 'catalog:read'],
      deliveryMode: 'POLLING',
    });
    const c = (await res.json()) as { clientId: string; clientSecret: string };
    for (
      let i = 0;
      (await stack.admin('GET', `/admin/v1/credentials/${c.clientId}/events`)).status !== 200;
      i++
    ) {
      if (i > 300) throw new Error('credential never reached the feed');
      await new Promise((r) => setTimeout(r, 20));
    }
    return c;
  };
  const envOf = (c: { clientId: string; clientSecret: string }) => ({
    ...process.env,
    OD_BASE_URL: stack.gateway.publicUrl,
    OD_CLIENT_ID: c.clientId,
    OD_CLIENT_SECRET: c.clientSecret,
    OD_MERCHANT_ID: merchantId,
  });

  beforeAll(async () => {
    stack = await startStack({ env: { RATE_LIMIT_ENABLED: 'false' } });
    ({ merchantId } = await createMerchant(stack));
  });
  afterAll(async () => {
    await stack?.stop();
    rmSync(tmp, { recursive: true, force: true });
  });

  it('builds with tsc, packs to dist/ with types, and runs the cycle on Node 20', {
    timeout: 180_000,
  }, async () => {
    expect(existsSync(path.join(PKG, 'src/generated/spec.ts'))).toBe(true); // pnpm generate
    rmSync(path.join(PKG, 'dist'), { recursive: true, force: true });
    await run(path.join(PKG, 'node_modules/.bin/tsc'), ['-p', 'tsconfig.build.json'], { cwd: PKG });
    await run('pnpm', ['pack', '--pack-destination', tmp], { cwd: PKG });
    const tgz = readdirSync(tmp).find((f) => f.endsWith('.tgz'));
    expect(tgz).toMatch(/^od-client-0\.1\.0\.tgz$/);
    const dir = path.join(tmp, 'node_modules/@od/client');
    mkdirSync(dir, { recursive: true });
    await run('tar', ['-xzf', path.join(tmp, tgz ?? ''), '-C', dir, '--strip-components=1']);
    const manifest = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8'));
    expect(manifest.exports).toEqual({ '.': { types: './dist/index.d.ts', import: './dist/index.js' } });
    expect(manifest.engines.node).toBe('>=20');
    expect(Object.keys(manifest.dependencies)).toEqual(['openapi-fetch']);
    expect(existsSync(path.join(dir, 'dist/index.d.ts'))).toBe(true);
    expect(existsSync(path.join(dir, 'dist/generated/spec.d.ts'))).toBe(true);
    expect(existsSync(path.join(dir, 'src'))).toBe(false);
    // its only dependency, as an installation would provide it
    symlinkSync(
      realpathSync(path.join(PKG, 'node_modules/openapi-fetch')),
      path.join(tmp, 'node_modules/openapi-fetch'),
    );
    writeFileSync(path.join(tmp, 'smoke.mjs'), readFileSync(path.join(PKG, 'scripts/smoke.mjs')));

    const c = await credential();
    const order = await createOrder(stack, merchantId, { type: 'DELIVERY' });
    const { stdout } = await run(NODE20, [path.join(tmp, 'smoke.mjs')], { cwd: tmp, env: envOf(c) });
    const out = JSON.parse(stdout.trim());
    expect(out).toEqual({
      node: expect.stringMatching(/^v20\./),
      merchant: merchantId,
      eventType: 'CREATED',
      order: order.id,
      action: { status: 'accepted', situation: 'ACCEPTED' },
      ack: { acknowledged: 1 },
      notFound: 'order_not_found',
      verified: true,
    });
  });

  it("runs the README's first integration as written: confirms new orders, acknowledges, stops on SIGINT", async () => {
    const readme = readFileSync(path.join(PKG, 'README.md'), 'utf8');
    const block =
      /<!-- first-integration:start -->\n```ts\n([\s\S]*?)```\n<!-- first-integration:end -->/.exec(readme);
    expect(block).not.toBeNull();
    const code = block?.[1] ?? '';
    expect(code.split('\n').filter(Boolean).length).toBeLessThanOrEqual(21);
    // inside the package, so `import '@od/client'` resolves to it (package self-reference)
    const file = path.join(PKG, 'tmp', `first-integration-${process.pid}.ts`);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, code);
    const c = await credential();
    const orders = [
      await createOrder(stack, merchantId, { type: 'DELIVERY' }),
      await createOrder(stack, merchantId, { type: 'TAKEOUT' }),
    ];
    // cancelled before the program sees it: its confirm answers 422, which the snippet lets go
    const cancelled = await createOrder(stack, merchantId, { type: 'DELIVERY' });
    expect(
      (await stack.admin('POST', `/admin/v1/orders/${cancelled.id}/cancel`, { by: 'CUSTOMER' })).status,
    ).toBe(202);
    const child = spawn(process.execPath, ['--import', 'tsx', file], { cwd: PKG, env: envOf(c) });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => {
      stdout += d;
    });
    child.stderr.on('data', (d) => {
      stderr += d;
    });
    const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
    try {
      const situations = async () =>
        Promise.all(
          orders.map(
            async (o) =>
              ((await (await stack.admin('GET', `/admin/v1/orders/${o.id}`)).json()) as { situation: string })
                .situation,
          ),
        );
      let s = await situations();
      for (let i = 0; i < 300 && s.some((x) => x !== 'ACCEPTED'); i++) {
        await new Promise((r) => setTimeout(r, 100));
        s = await situations();
      }
      expect(s, stderr).toEqual(['ACCEPTED', 'ACCEPTED']);
      // the events are acknowledged once handled (the CONFIRMED ones too, by a later poll)
      let pending = -1;
      for (let i = 0; i < 300 && pending !== 0; i++) {
        const feed = await stack.admin('GET', `/admin/v1/credentials/${c.clientId}/events?state=pending`);
        pending = ((await feed.json()) as { pending: number }).pending;
        if (pending) await new Promise((r) => setTimeout(r, 100));
      }
      expect(pending).toBe(0);
    } finally {
      child.kill('SIGINT');
    }
    expect(await exited).toBe(0);
    for (const o of [...orders, cancelled]) expect(stdout).toContain(`new order ${o.id}`);
    rmSync(file, { force: true });
  });
});

describe('the OpenAPI quick start', () => {
  it('names only SDK calls that exist, and the published document carries it', async () => {
    const { createOdClient } = await import('./index.ts');
    const doc = JSON.parse(readFileSync(path.resolve(PKG, '../../docs/openapi.json'), 'utf8'));
    const description: string = doc.info.description;
    expect(description).toContain("import { createOdClient, OdApiError } from '@od/client';");
    const od = createOdClient({
      baseUrl: 'https://x',
      clientId: 'c',
      clientSecret: 's',
    }) as unknown as Record<string, Record<string, unknown>>;
    const calls = [...description.matchAll(/\bod\.(\w+)\.(\w+)\(/g)].map((m) => [m[1], m[2]]);
    expect(calls.length).toBeGreaterThanOrEqual(2);
    for (const [group, name] of calls)
      expect(typeof od[group]?.[name], `od.${group}.${name}`).toBe('function');
  });
});
