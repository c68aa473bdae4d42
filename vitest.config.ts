import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { defineConfig } from 'vitest/config';

// Test webhooks go to a local HTTPS receiver signed by a test CA; workers fork after this and inherit it
// (a machine-wide NODE_EXTRA_CA_CERTS is kept: both go into one bundle).
const testCa = path.resolve(import.meta.dirname, 'libs/testing/certs/ca.pem');
const extraCa = process.env.NODE_EXTRA_CA_CERTS;
if (!extraCa || !existsSync(extraCa)) process.env.NODE_EXTRA_CA_CERTS = testCa;
else if (extraCa !== testCa && !extraCa.endsWith('od-test-ca-bundle.pem')) {
  const bundle = path.join(os.tmpdir(), 'od-test-ca-bundle.pem');
  writeFileSync(bundle, `${readFileSync(extraCa, 'utf8')}\n${readFileSync(testCa, 'utf8')}`);
  process.env.NODE_EXTRA_CA_CERTS = bundle;
}

export default defineConfig({
  test: {
    include: [
      'libs/*/src/**/*.test.ts',
      'services/*/src/**/*.test.ts',
      'services/*/web/src/**/*.test.ts',
      'tests/**/*.test.ts',
      'examples/**/*.test.ts',
      'cli/**/*.test.ts',
      'scripts/**/*.test.ts',
    ],
    exclude: ['**/node_modules/**', '**/generated/**'],
    globalSetup: ['libs/testing/src/global-setup.ts'],
    testTimeout: 30_000,
    // a stack starts in beforeAll: 10-20 s on a quiet machine, up to a minute at load average 10+
    hookTimeout: 120_000,
    pool: 'forks',
    maxWorkers: 2,
    // CI also writes a JSON report; .ci/run prints its totals as a plain "N passed, N failed" line
    reporters: process.env.CI ? ['default', 'json'] : ['default'],
    outputFile: { json: 'test-results.json' },
  },
});
