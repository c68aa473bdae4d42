import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { packageDirOf, thirdPartyNotices } from '../scripts/third-party-licenses.ts';

describe('packageDirOf', () => {
  it('finds the package of a file in pnpm’s layout, scoped or not', () => {
    expect(packageDirOf('/r/node_modules/.pnpm/fastify@5.1.0/node_modules/fastify/lib/route.js')).toBe(
      '/r/node_modules/.pnpm/fastify@5.1.0/node_modules/fastify',
    );
    expect(packageDirOf('/r/node_modules/.pnpm/x/node_modules/@nats-io/nats-core/lib/a.js')).toBe(
      '/r/node_modules/.pnpm/x/node_modules/@nats-io/nats-core',
    );
    expect(packageDirOf('/r/libs/bus/src/rpc.ts')).toBeUndefined();
  });
});

describe('thirdPartyNotices', () => {
  const root = mkdtempSync(path.join(os.tmpdir(), 'od-licenses-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  const pkg = (dir: string, json: object, license?: string) => {
    mkdirSync(path.join(root, dir, 'lib'), { recursive: true });
    writeFileSync(path.join(root, dir, 'package.json'), JSON.stringify(json));
    if (license) writeFileSync(path.join(root, dir, 'LICENSE.md'), license);
  };
  pkg('node_modules/zeta', { name: 'zeta', version: '1.2.3', license: 'MIT' }, 'Copyright (c) Zeta\n');
  pkg('node_modules/@scope/alpha', { name: '@scope/alpha', version: '0.1.0', license: 'ISC' });

  it('gives each bundled package its license text once, sorted, and nothing for our own code', () => {
    const text = thirdPartyNotices(
      {
        inputs: {
          'node_modules/zeta/lib/a.js': { bytes: 1, imports: [] },
          'node_modules/zeta/lib/b.js': { bytes: 1, imports: [] },
          'node_modules/@scope/alpha/lib/index.js': { bytes: 1, imports: [] },
          'libs/bus/src/rpc.ts': { bytes: 1, imports: [] },
          'required-builtin:node:http': { bytes: 1, imports: [] },
        },
        outputs: {},
      },
      root,
    );
    expect(text.indexOf('@scope/alpha@0.1.0 (ISC)')).toBeLessThan(text.indexOf('zeta@1.2.3 (MIT)'));
    expect(text).toContain('Copyright (c) Zeta');
    expect(text).toContain('no license file in the package; package.json declares: ISC');
    expect(text.match(/zeta@/g)).toHaveLength(1);
    expect(text).not.toContain('rpc');
  });
});
