import { z } from 'zod';
import { PANEL_ROLES, type PanelRole } from './codes.ts';
import { defineOps } from './op.ts';

/**
 * Merchant panel users (served by the panel service). Support manages them through the Admin API
 * (`/admin/v1/merchants/{merchantId}/users`) and `odctl user`.
 */
const store = z.object({ merchantId: z.string() });

/** The invite's body (Admin API and `odctl user invite`): checked once, by the op. */
export const inviteBodySchema = z.object({
  email: z
    .string()
    .trim()
    .toLowerCase()
    .max(254, 'email deve ter no máximo 254 caracteres.')
    .email('email inválido.'),
  role: z.enum(PANEL_ROLES, { error: 'role deve ser OWNER ou STAFF.' }),
});
export type InviteBody = z.infer<typeof inviteBodySchema>;

export const PANEL_OPS = defineOps('panel', {
  /** params { merchantId }, body { email, role } -> 201 UserInvite (no setup token for an existing account) | 404 | 400 */
  invite: {
    name: 'admin.users.invite',
    callers: ['admin'],
    params: store,
    body: inviteBodySchema,
    invalidMessage: 'Convite inválido.',
  },
  /** params { merchantId } -> 200 StoreUser[] */
  list: { name: 'admin.users.list', callers: ['admin'], params: store },
  /**
   * params { merchantId, userId } -> 201 PasswordReset | 404 (not a user of the store): support's
   * deliberate reset of a forgotten password (an invite never resets one). The current password
   * stays valid until the token is used.
   */
  passwordReset: {
    name: 'admin.users.passwordReset',
    callers: ['admin'],
    params: z.object({ merchantId: z.string(), userId: z.string() }),
  },
  /** params { merchantId, userId } -> 204 | 404 (removes the membership and the user's sessions) */
  remove: {
    name: 'admin.users.remove',
    callers: ['admin'],
    params: z.object({ merchantId: z.string(), userId: z.string() }),
  },
});

export { PANEL_PASSWORD_MAX, PANEL_PASSWORD_MIN, PANEL_ROLES, type PanelRole } from './codes.ts';

/** A setup token is single-use and valid this long. */
export const SETUP_TOKEN_TTL_MS = 72 * 60 * 60 * 1000;

/**
 * The invite's answer. To an e-mail that already has an account (a password set), the store is
 * granted and nothing else: `existingAccount` true, no setup token (the password is never touched).
 */
export interface UserInvite {
  userId: string;
  email: string;
  role: PanelRole;
  existingAccount: boolean;
  /** shown once: the invitee sets a password with it at `setupUrl` (new accounts only) */
  setupToken?: string;
  setupUrl?: string;
}

/** A password reset's answer: the token (shown once) for the user alone, valid 72 h, single use. */
export interface PasswordReset {
  userId: string;
  email: string;
  setupToken: string;
  setupUrl: string;
}

export interface StoreUser {
  userId: string;
  email: string;
  role: PanelRole;
  /** false until the invite was accepted (password set) */
  active: boolean;
  createdAt: string;
}
