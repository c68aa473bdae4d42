import type { Pool } from '@od/db';
import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaClient } from './generated/client.ts';

export type Db = PrismaClient;

/** Prisma over the service's own pool (search_path = webhook): cold admin paths only. */
export function createDb(pool: Pool): Db {
  return new PrismaClient({ adapter: new PrismaPg(pool, { schema: 'webhook' }) });
}
