// Applies every service's SQL migrations (the same runner the services use at start).
import path from 'node:path';
import { loadConfig } from '@od/config';
import { migrate } from '@od/db';
import { DB_SERVICES, ROOT } from './services.ts';

const config = loadConfig(process.env, () => {});
for (const s of DB_SERVICES) {
  const applied = await migrate({
    databaseUrl: config.DATABASE_URL,
    schema: s,
    dir: path.join(ROOT, 'services', s, 'prisma', 'migrations'),
  });
  console.log(`${s}: ${applied.length ? applied.join(', ') : 'up to date'}`);
}
