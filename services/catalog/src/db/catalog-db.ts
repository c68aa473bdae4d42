import type { Menu, MenuInput } from '@od/contracts';
import type { Pool } from '@od/db';
import { PrismaPg } from '@prisma/adapter-pg';
import { publicMerchant, type StoreState } from '../domain/merchant.ts';
import { PrismaClient } from './generated/client.ts';
import type { CachedStore } from './store-cache.ts';

export type Prisma = InstanceType<typeof PrismaClient>;

type MerchantRow = {
  id: string;
  test: boolean;
  name: string;
  description: string;
  document: string;
  status: string;
  contactEmails: string[];
  contactPhones: string[];
  address: unknown;
  services: unknown;
  menuId: string;
  createdAt: Date | string;
  lastUpdate: Date | string;
};

const iso = (d: Date | string) => new Date(d).toISOString();

function toState(r: MerchantRow): StoreState {
  return {
    id: r.id,
    test: r.test,
    name: r.name,
    description: r.description,
    document: r.document,
    status: r.status as StoreState['status'],
    contactEmails: r.contactEmails,
    contactPhones: r.contactPhones,
    address: r.address as StoreState['address'],
    services: r.services as StoreState['services'],
    menuId: r.menuId,
    createdAt: iso(r.createdAt),
    lastUpdate: iso(r.lastUpdate),
  };
}

/** The written columns: the state as it is (id and createdAt never change), plus the served JSON. */
function merchantColumns(s: StoreState) {
  const { id: _id, createdAt: _createdAt, ...columns } = s;
  return {
    ...columns,
    lastUpdate: new Date(s.lastUpdate),
    publicJson: JSON.stringify(publicMerchant(s)),
  };
}

const Q_RENDERED = {
  name: 'catalog_store_rendered',
  text: 'SELECT m.public_json AS merchant, m.test, n.public_json AS menu FROM merchants m LEFT JOIN menus n ON n.merchant_id = m.id WHERE m.id = $1',
};
const enc = new TextEncoder();

/**
 * Queries of the catalog. Hot reads (public merchant, public menu, snapshot) come from one prepared
 * primary-key lookup returning the stored JSON text (cached per replica, see StoreCache). Edits go through Prisma in
 * a transaction holding the store's row lock, and re-render the stored JSON.
 */
export class CatalogDb {
  readonly prisma: Prisma;
  constructor(private readonly pool: Pool) {
    this.prisma = new PrismaClient({ adapter: new PrismaPg(pool, { schema: 'catalog' }) });
  }

  /**
   * The three rendered answers of a store (public Merchant, public menus array, MerchantSnapshot)
   * from one prepared primary-key lookup of stored JSON text, concatenated without parsing.
   */
  async rendered(id: string): Promise<CachedStore | null> {
    const r = await this.pool.query<{ merchant: string; test: boolean; menu: string | null }>({
      ...Q_RENDERED,
      values: [id],
    });
    const row = r.rows[0];
    if (!row) return null;
    return {
      merchant: enc.encode(row.merchant),
      menus: enc.encode(row.menu === null ? '[]' : `[${row.menu}]`),
      snapshot: enc.encode(`{"merchant":${row.merchant},"test":${row.test},"menu":${row.menu ?? 'null'}}`),
    };
  }

  async load(id: string): Promise<StoreState | null> {
    const row = await this.prisma.merchant.findUnique({ where: { id } });
    return row ? toState(row) : null;
  }

  /** Inserts a store and its menu in one transaction. false = the id is taken. */
  async create(s: StoreState, menu: { source: MenuInput; public: Menu }): Promise<boolean> {
    try {
      await this.prisma.$transaction([
        this.prisma.merchant.create({
          data: { id: s.id, createdAt: new Date(s.createdAt), ...merchantColumns(s) },
        }),
        this.prisma.menu.create({
          data: {
            merchantId: s.id,
            id: menu.public.id,
            source: menu.source as object,
            publicJson: JSON.stringify(menu.public),
            updatedAt: new Date(s.lastUpdate),
          },
        }),
      ]);
      return true;
    } catch (e) {
      if ((e as { code?: string }).code === 'P2002') return false;
      throw e;
    }
  }

  /**
   * Read-modify-write of one store under its row lock. `edit` returns the new state and, when the
   * menu is replaced, the new menu. Returns null when the store does not exist.
   */
  async edit<T>(
    id: string,
    edit: (s: StoreState) => { state: StoreState; menu?: { source: MenuInput; public: Menu }; result: T },
  ): Promise<T | null> {
    return this.prisma.$transaction(async (tx) => {
      const locked = await tx.$queryRaw<
        { id: string }[]
      >`SELECT id FROM merchants WHERE id = ${id}::uuid FOR UPDATE`;
      if (locked.length === 0) return null;
      const row = await tx.merchant.findUniqueOrThrow({ where: { id } });
      const out = edit(toState(row));
      await tx.merchant.update({ where: { id }, data: merchantColumns(out.state) });
      if (out.menu) {
        await tx.menu.update({
          where: { merchantId: id },
          data: {
            id: out.menu.public.id,
            source: out.menu.source as object,
            publicJson: JSON.stringify(out.menu.public),
            updatedAt: new Date(out.state.lastUpdate),
          },
        });
      }
      return out.result;
    });
  }

  async close(): Promise<void> {
    await this.prisma.$disconnect();
  }
}
