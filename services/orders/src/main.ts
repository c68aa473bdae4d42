import path from 'node:path';
import type { Config } from '@od/config';
import { runMain, type ServiceHandle, type StartOptions, startServiceBase } from '@od/runtime';

const MIGRATIONS = path.join(import.meta.dirname, '..', 'prisma', 'migrations');

export async function start(config: Config, opts: StartOptions = {}): Promise<ServiceHandle> {
  const base = await startServiceBase('orders', config, opts, { migrationsDir: MIGRATIONS });
  return {
    async stop() {
      await base.close();
    },
  };
}

export const main = () => runMain('orders', start);
