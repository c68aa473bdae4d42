import type { Menu, MenuInput, StoreDay } from '@od/contracts';
import type { Pool } from '@od/db';
import { PrismaPg } from '@prisma/adapter-pg';
import { publicMerchant, type StoreState, statusesAt } from '../domain/merchant.ts';
import { Prisma as P, PrismaClient } from './generated/client.ts';
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
  timeZone: string;
  serviceHours: unknown;
  pausedUntil: Date | string | null;
  pauseReason: string | null;
  confirmationTimeoutSeconds: number;
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
    timeZone: r.timeZone,
    serviceHours: (r.serviceHours ?? null) as StoreState['serviceHours'],
    pausedUntil: r.pausedUntil === null ? null : iso(r.pausedUntil),
    pauseReason: r.pauseReason,
    confirmationTimeoutSeconds: r.confirmationTimeoutSeconds,
  };
}

/** The written columns: the state as it is (id and createdAt never change), plus the served JSON. */
function merchantColumns(s: StoreState) {
  const { id: _id, createdAt: _createdAt, serviceHours, pausedUntil, services, ...columns } = s;
  return {
    ...columns,
    services: services as object[],
    serviceHours: serviceHours === null ? P.DbNull : (serviceHours as object),
    pausedUntil: pausedUntil === null ? null : new Date(pausedUntil),
    lastUpdate: new Date(s.lastUpdate),
    publicJson: JSON.stringify(publicMerchant(s)),
  };
}

const Q_RENDERED = {
  name: 'catalog_store_rendered_day',
  text: `SELECT m.public_json AS merchant, m.test, n.public_json AS menu,
      json_build_object('status', m.status,
        'pausedUntil', to_char(m.paused_until AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
        'pauseReason', m.pause_reason, 'timeZone', m.time_zone, 'serviceHours', m.service_hours,
        'services', m.services, 'confirmationTimeoutSeconds', m.confirmation_timeout_seconds)::text AS day
    FROM merchants m LEFT JOIN menus n ON n.merchant_id = m.id WHERE m.id = $1`,
};
const hasPause = (d: StoreDay) => d.pausedUntil != null || d.services.some((x) => x.pausedUntil != null);
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
  async rendered(id: string, at = new Date()): Promise<CachedStore | null> {
    const r = await this.pool.query<{ merchant: string; test: boolean; menu: string | null; day: string }>({
      ...Q_RENDERED,
      values: [id],
    });
    const row = r.rows[0];
    if (!row) return null;
    let merchant = row.merchant;
    let until: number | undefined;
    const day = JSON.parse(row.day) as StoreDay;
    // a pause ends by itself: the stored statuses are re-read at `at`, the answer kept until the next end
    if (hasPause(day)) {
      const now = statusesAt(day, at);
      const m = JSON.parse(merchant) as {
        status: string;
        services: { serviceType: string; status: string }[];
      };
      m.status = now.status;
      for (const s of m.services) s.status = now.services[s.serviceType as 'DELIVERY'] ?? 'UNAVAILABLE';
      merchant = JSON.stringify(m);
      until = now.until;
    }
    return {
      merchant: enc.encode(merchant),
      menus: enc.encode(row.menu === null ? '[]' : `[${row.menu}]`),
      snapshot: enc.encode(
        `{"merchant":${merchant},"test":${row.test},"menu":${row.menu ?? 'null'},"store":${row.day}}`,
      ),
      ...(until === undefined ? {} : { until }),
    };
  }

  /** Whether an api key may be sealed under another key than `activeId` (null key ids included). */
  async anyApiKeyNotUnder(activeId: string): Promise<boolean> {
    const r = await this.pool.query<{ any: boolean }>(
      `SELECT EXISTS (SELECT 1 FROM od_merchant_source
         WHERE api_key IS NOT NULL AND api_key_key_id IS DISTINCT FROM $1) AS any`,
      [activeId],
    );
    return r.rows[0].any;
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
