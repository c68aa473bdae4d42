import type { Pool } from '@od/db';
import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaClient } from './generated/client.ts';

/** The panel's Prisma client on the service's pool (loaded on first use: panel-db.ts). */
export function panelPrisma(pool: Pool) {
  return new PrismaClient({ adapter: new PrismaPg(pool, { schema: 'panel' }) });
}

export type PanelPrisma = ReturnType<typeof panelPrisma>;
