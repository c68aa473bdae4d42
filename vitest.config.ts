import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: [
      'libs/*/src/**/*.test.ts',
      'services/*/src/**/*.test.ts',
      'tests/**/*.test.ts',
      'examples/**/*.test.ts',
      'cli/**/*.test.ts',
    ],
    exclude: ['**/node_modules/**', '**/generated/**'],
    globalSetup: ['libs/testing/src/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    maxWorkers: 2,
  },
});
