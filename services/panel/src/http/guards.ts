import { canReach, isGuid, type PanelArea } from '@od/contracts';
import { HttpException } from '@od/errors';
import type { FastifyRequest } from 'fastify';
import type { PanelContext } from '../context.ts';
import { panelErrors } from '../domain/panel-errors.ts';
import { needsTouch, readCookie, sessionAlive } from '../domain/session.ts';
import { sameToken, tokenHash } from '../domain/tokens.ts';

const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * onRequest hook of every signed-in route (before the body is read): a live server-side session from the HttpOnly cookie, and
 * on every state-changing method the session's CSRF token in `x-csrf-token` (403 otherwise).
 */
export function requireSession(ctx: PanelContext) {
  return async (request: FastifyRequest) => {
    const cookie = readCookie(request.headers.cookie);
    if (!cookie) throw new HttpException(panelErrors.signInRequired());
    const id = tokenHash(cookie);
    const session = await ctx.db.session(id);
    const now = ctx.now();
    if (!session || !sessionAlive(session, now)) {
      if (session) await ctx.db.deleteSession(id);
      throw new HttpException(panelErrors.signInRequired());
    }
    if (!SAFE.has(request.method)) {
      const sent = request.headers['x-csrf-token'];
      if (typeof sent !== 'string' || !sameToken(sent, session.csrfToken))
        throw new HttpException(panelErrors.csrf());
    }
    if (needsTouch(session, now)) await ctx.db.touchSession(id, now);
    request.session = session;
  };
}

/**
 * onRequest hook of `/panel/api/stores/:merchantId/...`: the user must belong to the store (any other
 * id, valid or not, answers 404 as if it did not exist) and its role must reach `area` (403).
 */
export function requireStore(ctx: PanelContext, area: PanelArea) {
  return async (request: FastifyRequest) => {
    const merchantId = String((request.params as { merchantId?: string }).merchantId ?? '').toLowerCase();
    const session = request.session;
    if (!session) throw new HttpException(panelErrors.signInRequired());
    const m = isGuid(merchantId) ? await ctx.db.membership(session.userId, merchantId) : null;
    if (!m) throw new HttpException(panelErrors.store());
    if (!canReach(m.role, area)) throw new HttpException(panelErrors.forbidden());
    request.store = m;
  };
}
