import {
  CATALOG_OPS,
  type Handlers,
  isGuid,
  type PANEL_OPS,
  type PasswordReset,
  SETUP_TOKEN_TTL_MS,
  type UserInvite,
} from '@od/contracts';
import { errors } from '@od/errors';
import type { PanelContext } from '../context.ts';
import { newToken, tokenHash } from '../domain/tokens.ts';
import { PANEL_ITSELF } from '../upstream.ts';

const userNotFound = () => errors.adminNotFound('Usuário');

/** The invite link: the token in the fragment, so it never reaches a server log. */
function setupUrlOf(ctx: PanelContext, token: string): string {
  const url = new URL('/panel/setup', ctx.base.config.PANEL_PUBLIC_URL);
  url.hash = `token=${token}`;
  return url.toString();
}

async function storeExists(ctx: PanelContext, merchantId: string, traceId: string): Promise<boolean> {
  const r = await ctx.base.rpc.call(
    CATALOG_OPS.adminGet,
    { params: { merchantId } },
    { traceId, principal: PANEL_ITSELF },
  );
  if (r.status === 404) return false;
  if (r.status !== 200) throw new Error(`catalog answered ${r.status}`);
  return true;
}

/**
 * Admin ops (called by the gateway's `/admin/v1/merchants/{merchantId}/users` routes): invite a
 * user to a store (201 with a single-use setup token valid 72 h, shown this once; none for an account
 * that already has a password: the store is granted, the password untouched), list, remove (its
 * live streams of the store close on every replica).
 */
export function userAdminHandlers(ctx: PanelContext): Handlers<typeof PANEL_OPS> {
  return {
    invite: async (req) => {
      const merchantId = String(req.params?.merchantId ?? '').toLowerCase();
      if (!isGuid(merchantId) || !(await storeExists(ctx, merchantId, req.traceId)))
        return errors.adminNotFound('Estabelecimento');
      const { email, role } = req.body;
      const token = newToken();
      const now = ctx.now();
      const { userId, existingAccount } = await ctx.db.invite(
        merchantId,
        email,
        role,
        tokenHash(token),
        new Date(now.getTime() + SETUP_TOKEN_TTL_MS),
        now,
      );
      if (existingAccount) {
        const body: UserInvite = { userId, email, role, existingAccount };
        return { status: 201, body, headers: { 'Cache-Control': 'no-store' } };
      }
      const body: UserInvite = {
        userId,
        email,
        role,
        existingAccount,
        setupToken: token,
        setupUrl: setupUrlOf(ctx, token),
      };
      return { status: 201, body, headers: { 'Cache-Control': 'no-store' } };
    },
    list: async (req) => {
      const merchantId = String(req.params?.merchantId ?? '').toLowerCase();
      if (!isGuid(merchantId)) return errors.adminNotFound('Estabelecimento');
      return { status: 200, body: await ctx.db.storeUsers(merchantId) };
    },
    passwordReset: async (req) => {
      const merchantId = String(req.params?.merchantId ?? '').toLowerCase();
      const userId = String(req.params?.userId ?? '').toLowerCase();
      if (!isGuid(merchantId) || !isGuid(userId)) return userNotFound();
      const token = newToken();
      const now = ctx.now();
      const expires = new Date(now.getTime() + SETUP_TOKEN_TTL_MS);
      const email = await ctx.db.resetToken(merchantId, userId, tokenHash(token), expires, now);
      if (!email) return userNotFound();
      const body: PasswordReset = { userId, email, setupToken: token, setupUrl: setupUrlOf(ctx, token) };
      return { status: 201, body, headers: { 'Cache-Control': 'no-store' } };
    },
    remove: async (req) => {
      const merchantId = String(req.params?.merchantId ?? '').toLowerCase();
      const userId = String(req.params?.userId ?? '').toLowerCase();
      if (!isGuid(merchantId) || !isGuid(userId)) return userNotFound();
      if (!(await ctx.db.removeMembership(merchantId, userId))) return userNotFound();
      await ctx.streams.revoke({ userId, merchantId });
      return { status: 204 };
    },
  };
}
