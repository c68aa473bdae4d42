import { existsSync } from 'node:fs';
import path from 'node:path';

export const ROOT = path.resolve(import.meta.dirname, '..');
/** Start order: the gateway last, once every service answers. */
export const SERVICES = ['auth', 'catalog', 'orders', 'feed', 'webhook', 'panel', 'gateway'] as const;
export const DB_SERVICES = SERVICES.filter((s) =>
  existsSync(path.join(ROOT, 'services', s, 'prisma', 'migrations')),
);

/** Ops listener (/metrics, /livez, /readyz) of each service under `pnpm start` (127.0.0.1). */
export const OPS_PORTS: Record<string, number> = {
  gateway: 9400,
  auth: 9401,
  catalog: 9402,
  orders: 9403,
  feed: 9404,
  webhook: 9405,
  panel: 9406,
};
