import { inviteBodySchema, PANEL_OPS } from '@od/contracts';
import { z } from 'zod';
import type { RouteModule } from '../context.ts';
import { relayRoutes } from '../forward.ts';

// ids are checked by the panel service (unknown or malformed = 404)
const storeParams = z.object({ merchantId: z.string() });
const userParams = z.object({ merchantId: z.string(), userId: z.string() });

/**
 * Admin routes served by the panel service: merchant users of a store. The invite answers 201
 * `{ userId, email, role, existingAccount, setupToken?, setupUrl? }`; the token is single-use, valid
 * 72 h, shown once, and issued only to a new account (an existing one is granted the store only).
 */
export const userAdminRoutes: RouteModule = (app, ctx) => {
  const relay = relayRoutes(app, ctx);
  const users = '/admin/v1/merchants/:merchantId/users';
  relay.post(users, { params: storeParams, body: inviteBodySchema }, PANEL_OPS.invite);
  relay.get(users, { params: storeParams }, PANEL_OPS.list);
  relay.delete(`${users}/:userId`, { params: userParams }, PANEL_OPS.remove);
  // support resets a forgotten password: a setup token for that user only (201, shown once)
  relay.post(`${users}/:userId/password-reset`, { params: userParams }, PANEL_OPS.passwordReset);
};
