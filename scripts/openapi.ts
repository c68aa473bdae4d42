// `pnpm openapi`: writes the OpenAPI documents built from the gateway's routes to docs/
// (openapi.json = public API, openapi-admin.json = Admin API). `pnpm openapi --check` writes
// nothing and fails when a checked-in file differs from what the code generates (CI runs it).
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { openApiFiles } from '../services/gateway/src/http/openapi-documents.ts';
import { ROOT } from './services.ts';

const check = process.argv.includes('--check');
let stale = 0;
for (const [name, text] of Object.entries(await openApiFiles())) {
  const file = path.join(ROOT, 'docs', name);
  if (!check) {
    writeFileSync(file, text);
    console.log(`wrote docs/${name}`);
    continue;
  }
  let current = '';
  try {
    current = readFileSync(file, 'utf8');
  } catch {}
  if (current !== text) {
    stale++;
    console.error(`docs/${name} differs from the routes: run \`pnpm openapi\` and commit it`);
  }
}
process.exit(stale ? 1 : 0);
