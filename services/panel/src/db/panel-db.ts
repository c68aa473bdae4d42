import { randomUUID } from 'node:crypto';
import type { ParsedOrderEvent } from '@od/bus';
import type { PanelRole, StoreUser } from '@od/contracts';
import type { Pool } from '@od/db';
import { SESSION_ABSOLUTE_MS } from '../domain/session.ts';
import type { PanelPrisma } from './panel-prisma.ts';

export interface SessionRow {
  id: string;
  userId: string;
  email: string;
  csrfToken: string;
  lastSeenAt: Date;
  expiresAt: Date;
}

export interface MembershipRow {
  merchantId: string;
  role: PanelRole;
}

/**
 * Every query of the panel's own schema (users, memberships, sessions, setup tokens, board projection).
 * Prisma (its client runtime and adapter) loads with the first query that uses it: a panel nobody
 * signs in to never holds it (docs/operations.md, "Memory"); what runs without a user (the board
 * projection, the periodic prune) is SQL on the pool.
 */
export class PanelDb {
  private client: Promise<PanelPrisma> | undefined;

  constructor(readonly pool: Pool) {}

  private prisma(): Promise<PanelPrisma> {
    this.client ??= import('./panel-prisma.ts')
      .then((m) => m.panelPrisma(this.pool))
      .catch((e) => {
        this.client = undefined;
        throw e;
      });
    return this.client;
  }

  /**
   * Adds (or changes) the store membership, creating the user if new. A user who already has a
   * password keeps it: no setup token is stored (`tokenHash` unused) and `existingAccount` is true,
   * so an invite to one store can never take over an account and its other stores.
   */
  async invite(
    merchantId: string,
    email: string,
    role: PanelRole,
    tokenHash: string,
    expiresAt: Date,
    now: Date,
  ): Promise<{ userId: string; existingAccount: boolean }> {
    const prisma = await this.prisma();
    return prisma.$transaction(async (tx) => {
      const user = await tx.user.upsert({
        where: { email },
        create: { id: randomUUID(), email, createdAt: now },
        update: {},
      });
      await tx.membership.upsert({
        where: { userId_merchantId: { userId: user.id, merchantId } },
        create: { userId: user.id, merchantId, role, createdAt: now },
        update: { role },
      });
      if (user.passwordHash !== null) return { userId: user.id, existingAccount: true };
      await tx.setupToken.create({ data: { tokenHash, userId: user.id, createdAt: now, expiresAt } });
      return { userId: user.id, existingAccount: false };
    });
  }

  /**
   * A setup token for a user of the store (support's password reset); its e-mail, or null when the
   * user is not one of the store's. The current password stays valid until the token is used.
   */
  async resetToken(merchantId: string, userId: string, tokenHash: string, expiresAt: Date, now: Date) {
    const prisma = await this.prisma();
    return prisma.$transaction(async (tx) => {
      const m = await tx.membership.findUnique({
        where: { userId_merchantId: { userId, merchantId } },
        include: { user: { select: { email: true } } },
      });
      if (!m) return null;
      await tx.setupToken.create({ data: { tokenHash, userId, createdAt: now, expiresAt } });
      return m.user.email;
    });
  }

  async storeUsers(merchantId: string): Promise<StoreUser[]> {
    const prisma = await this.prisma();
    const rows = await prisma.membership.findMany({
      where: { merchantId },
      include: { user: true },
      orderBy: { createdAt: 'asc' },
    });
    return rows.map((m) => ({
      userId: m.userId,
      email: m.user.email,
      role: m.role as PanelRole,
      active: m.user.passwordHash !== null,
      createdAt: m.createdAt.toISOString(),
    }));
  }

  /** Removes the membership; a user left without stores loses every session. false = no such membership. */
  async removeMembership(merchantId: string, userId: string): Promise<boolean> {
    const prisma = await this.prisma();
    return prisma.$transaction(async (tx) => {
      const { count } = await tx.membership.deleteMany({ where: { merchantId, userId } });
      if (count === 0) return false;
      const left = await tx.membership.count({ where: { userId } });
      if (left === 0) await tx.session.deleteMany({ where: { userId } });
      return true;
    });
  }

  /** The user of a setup token still usable (unused, unexpired), else null: looked up before any hashing. */
  async setupTokenUser(tokenHash: string, now: Date): Promise<string | null> {
    const prisma = await this.prisma();
    const t = await prisma.setupToken.findFirst({
      where: { tokenHash, usedAt: null, expiresAt: { gt: now } },
      select: { userId: true },
    });
    return t?.userId ?? null;
  }

  /**
   * Uses a setup token once: marks it AND every other outstanding token of its user used (one
   * statement: of two tokens used at once, the second finds nothing left), sets the password and
   * ends the user's sessions. Returns the user, or null when the token is unknown, used or expired.
   */
  async useSetupToken(tokenHash: string, passwordHash: string, now: Date): Promise<string | null> {
    const prisma = await this.prisma();
    return prisma.$transaction(async (tx) => {
      const used = await tx.$queryRaw<{ user_id: string; token_hash: string }[]>`
        WITH t AS (
          SELECT user_id FROM setup_tokens WHERE token_hash = ${tokenHash} AND used_at IS NULL AND expires_at > ${now}
        )
        UPDATE setup_tokens s SET used_at = ${now} FROM t
        WHERE s.user_id = t.user_id AND s.used_at IS NULL AND s.expires_at > ${now}
        RETURNING s.user_id::text, s.token_hash`;
      const mine = used.find((r) => r.token_hash === tokenHash);
      if (!mine) return null;
      await tx.user.update({ where: { id: mine.user_id }, data: { passwordHash } });
      await tx.session.deleteMany({ where: { userId: mine.user_id } });
      return mine.user_id;
    });
  }

  /** A new password; every session of the user but `keepSessionId` ends. */
  async changePassword(userId: string, passwordHash: string, keepSessionId: string): Promise<void> {
    const prisma = await this.prisma();
    await prisma.$transaction([
      prisma.user.update({ where: { id: userId }, data: { passwordHash } }),
      prisma.session.deleteMany({ where: { userId, id: { not: keepSessionId } } }),
    ]);
  }

  async userByEmail(email: string) {
    const prisma = await this.prisma();
    return prisma.user.findUnique({ where: { email }, select: { id: true, passwordHash: true } });
  }

  async createSession(id: string, userId: string, csrfToken: string, now: Date): Promise<void> {
    const prisma = await this.prisma();
    await prisma.session.create({
      data: {
        id,
        userId,
        csrfToken,
        createdAt: now,
        lastSeenAt: now,
        expiresAt: new Date(now.getTime() + SESSION_ABSOLUTE_MS),
      },
    });
  }

  async session(id: string): Promise<SessionRow | null> {
    const prisma = await this.prisma();
    const s = await prisma.session.findUnique({
      where: { id },
      include: { user: { select: { email: true } } },
    });
    if (!s) return null;
    return {
      id: s.id,
      userId: s.userId,
      email: s.user.email,
      csrfToken: s.csrfToken,
      lastSeenAt: s.lastSeenAt,
      expiresAt: s.expiresAt,
    };
  }

  async touchSession(id: string, now: Date): Promise<void> {
    const prisma = await this.prisma();
    await prisma.session.updateMany({ where: { id }, data: { lastSeenAt: now } });
  }

  async deleteSession(id: string): Promise<void> {
    const prisma = await this.prisma();
    await prisma.session.deleteMany({ where: { id } });
  }

  async deleteUserSessions(userId: string): Promise<number> {
    const prisma = await this.prisma();
    const { count } = await prisma.session.deleteMany({ where: { userId } });
    return count;
  }

  /** Expired sessions and old setup tokens (called periodically, without Prisma: see the class). */
  async prune(now: Date, idleMs: number): Promise<void> {
    await this.pool.query('DELETE FROM sessions WHERE expires_at <= $1 OR last_seen_at <= $2', [
      now,
      new Date(now.getTime() - idleMs),
    ]);
    await this.pool.query('DELETE FROM setup_tokens WHERE expires_at <= $1', [
      new Date(now.getTime() - 86_400_000),
    ]);
  }

  async memberships(userId: string): Promise<MembershipRow[]> {
    const prisma = await this.prisma();
    const rows = await prisma.membership.findMany({ where: { userId }, orderBy: { createdAt: 'asc' } });
    return rows.map((m) => ({ merchantId: m.merchantId, role: m.role as PanelRole }));
  }

  async membership(userId: string, merchantId: string): Promise<MembershipRow | null> {
    const prisma = await this.prisma();
    const m = await prisma.membership.findUnique({
      where: { userId_merchantId: { userId, merchantId } },
    });
    return m ? { merchantId: m.merchantId, role: m.role as PanelRole } : null;
  }

  /** Board projection: keeps the newest event of each order (by per-order sequence). */
  /**
   * The board projection of a batch of order events, in one statement: per order, the event with
   * the highest orderSeq of the batch, kept only if newer than the stored one (redelivery and
   * out-of-order events change nothing).
   */
  async recordOrderEvents(events: ParsedOrderEvent[]) {
    const latest = new Map<string, ParsedOrderEvent>();
    for (const e of events) {
      const prev = latest.get(e.orderId);
      if (!prev || (e.orderSeq ?? 0) > (prev.orderSeq ?? 0)) latest.set(e.orderId, e);
    }
    const rows = [...latest.values()];
    await this.pool.query({
      name: 'panel_record_order_events',
      text: `INSERT INTO store_orders (order_id, merchant_id, last_event_type, order_seq, created_at, updated_at)
       SELECT o, m, t, s, a, a FROM unnest($1::uuid[], $2::uuid[], $3::text[], $4::int[], $5::timestamptz[]) AS x(o, m, t, s, a)
       ON CONFLICT (order_id) DO UPDATE SET last_event_type = EXCLUDED.last_event_type,
         order_seq = EXCLUDED.order_seq, updated_at = EXCLUDED.updated_at
       WHERE store_orders.order_seq < EXCLUDED.order_seq`,
      values: [
        rows.map((e) => e.orderId),
        rows.map((e) => e.merchantId),
        rows.map((e) => e.eventType),
        rows.map((e) => e.orderSeq ?? 0),
        rows.map((e) => e.createdAt),
      ],
    });
  }

  async close(): Promise<void> {
    const loaded = this.client;
    this.client = undefined;
    if (loaded) await (await loaded).$disconnect();
  }
}
