// Generates every service's Prisma client. Prisma's native schema engine cannot be downloaded on
// our machines and `generate` does not need it, so the CLI is pointed at a placeholder file.
import { execFileSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DB_SERVICES, ROOT } from './services.ts';

const placeholder = path.join(os.tmpdir(), 'prisma-schema-engine-placeholder');
if (!existsSync(placeholder)) writeFileSync(placeholder, '');
const env = {
  ...process.env,
  PRISMA_SCHEMA_ENGINE_BINARY: process.env.PRISMA_SCHEMA_ENGINE_BINARY ?? placeholder,
  PRISMA_HIDE_UPDATE_MESSAGE: '1',
};
for (const s of DB_SERVICES) {
  const dir = path.join(ROOT, 'services', s);
  if (!existsSync(path.join(dir, 'prisma', 'schema.prisma'))) continue;
  execFileSync(path.join(ROOT, 'node_modules', '.bin', 'prisma'), ['generate'], {
    cwd: dir,
    env,
    stdio: 'inherit',
  });
}

// Types of the official Open Delivery 1.4.0 document, for the client generated from it that the
// tests run as a standard integrator would (libs/opendelivery/src/client).
execFileSync(
  path.join(ROOT, 'node_modules', '.bin', 'openapi-typescript'),
  [
    'libs/opendelivery/src/spec/opendelivery-1.4.0.yaml',
    '-o',
    'libs/opendelivery/src/client/generated/schema.d.ts',
  ],
  { cwd: ROOT, stdio: 'inherit' },
);

// @od/client's types: the published contract (docs/openapi.json, SPEC profile) and the official
// document (OPEN_DELIVERY profile). Regenerate after `pnpm openapi`.
execFileSync(process.execPath, ['--import', 'tsx', 'libs/client/scripts/generate.ts'], {
  cwd: ROOT,
  stdio: 'inherit',
});
