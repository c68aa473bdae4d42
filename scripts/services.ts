import { existsSync } from 'node:fs';
import path from 'node:path';

export const ROOT = path.resolve(import.meta.dirname, '..');
/** Start order: the gateway last, once every service answers. */
export const SERVICES = ['auth', 'catalog', 'orders', 'feed', 'webhook', 'panel', 'gateway'] as const;
export const DB_SERVICES = SERVICES.filter((s) =>
  existsSync(path.join(ROOT, 'services', s, 'prisma', 'migrations')),
);

/**
 * How a service process runs, the same in the image (deploy/Dockerfile, `tests/node-flags.test.ts`),
 * under `pnpm start` and in the benchmarks (docs/operations.md, "Memory"):
 * - `--max-semi-space-size=8`: a young generation of at most 3 x 8 MB; V8's default lets it grow to
 *   ~100 MB under load and keeps it.
 * - `MALLOC_ARENA_MAX=2`: glibc gives each thread that allocates an arena of its own (V8's and
 *   libuv's workers) and keeps their freed pages; two arenas are enough for one event loop.
 * - `MALLOC_MMAP_THRESHOLD_=32768`: blocks of 32 KB and more (each socket read's 64 KB buffer among
 *   them) get pages of their own, returned when freed. From glibc's heap, the pages freed after a
 *   burst of load stayed with glibc (the gateway kept 40-55 MB it no longer used; `malloc_trim(0)`
 *   gave it back). A fixed value also stops glibc from raising the threshold by itself.
 *   docs/operations.md, "Memory".
 * Not `--enable-source-maps`: it reads and keeps the source map of every module with one (15-40 MB
 * per process); set it in NODE_OPTIONS to map a stack trace back to the TypeScript.
 */
export const NODE_FLAGS = ['--max-semi-space-size=8'] as const;
export const PROCESS_ENV = { MALLOC_ARENA_MAX: '2', MALLOC_MMAP_THRESHOLD_: '32768' } as const;

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
