import { existsSync } from 'node:fs';
import path from 'node:path';

export const ROOT = path.resolve(import.meta.dirname, '..');
/** Start order: the gateway last, once every service answers. */
export const SERVICES = ['auth', 'catalog', 'orders', 'feed', 'webhook', 'panel', 'gateway'] as const;
export const DB_SERVICES = SERVICES.filter((s) =>
  existsSync(path.join(ROOT, 'services', s, 'prisma', 'migrations')),
);
