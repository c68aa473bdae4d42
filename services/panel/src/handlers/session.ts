import { CATALOG_OPS, type PanelMe } from '@od/contracts';
import { errors, HttpException } from '@od/errors';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { PanelContext, PanelRoutes } from '../context.ts';
import { panelErrors } from '../domain/panel-errors.ts';
import { DUMMY_HASH, hashPassword, passwordProblem, verifyPassword } from '../domain/password.ts';
import { clearedCookie, SESSION_ABSOLUTE_MS, sessionCookie } from '../domain/session.ts';
import { newToken, tokenHash } from '../domain/tokens.ts';
import { upstream, userPrincipal } from '../upstream.ts';

const email = z.string().trim().toLowerCase().min(1, 'email é obrigatório.').max(254);
// length rules are checked by passwordProblem (one pt-BR message); the cap keeps scrypt bounded
const password = z.string().max(1000, 'A senha é longa demais.');

/** `{ email, csrfToken, stores: [{ merchantId, name, role, test }] }` of the signed-in user. */
async function me(
  ctx: PanelContext,
  request: FastifyRequest,
  userId: string,
  emailAddr: string,
  csrfToken: string,
) {
  const memberships = await ctx.db.memberships(userId);
  const stores = await Promise.all(
    memberships.map(async (m) => {
      const r = await upstream(
        ctx,
        request,
        CATALOG_OPS.adminGet,
        { params: { merchantId: m.merchantId } },
        userPrincipal({ userId, email: emailAddr }, m.merchantId, m.role),
      );
      return {
        merchantId: m.merchantId,
        name: r.body?.name ?? m.merchantId,
        role: m.role,
        test: r.body?.test === true,
      };
    }),
  );
  return { email: emailAddr, csrfToken, stores } satisfies PanelMe;
}

/** Counts an attempt in Redis before anything is hashed; Redis unreachable fails closed (503). */
async function admitted(request: FastifyRequest, count: () => Promise<number>): Promise<void> {
  let wait: number;
  try {
    wait = await count();
  } catch (err) {
    request.log.error({ err: (err as Error).message }, 'sign-in limiter unavailable');
    throw new HttpException(errors.unavailable(request.id));
  }
  if (wait > 0) throw new HttpException(panelErrors.tooManySignIns(wait));
}

/**
 * Routes reachable without a session: password setup (invite link) and sign-in. Both count the
 * attempt (Redis, login-limiter.ts) and check what is cheap (the token, the policy) before scrypt.
 */
export const signedOutRoutes: PanelRoutes = (app, ctx) => {
  app.post(
    '/panel/api/password-setup',
    { schema: { body: z.object({ token: z.string().min(1).max(200), password }) } },
    async (request, reply) => {
      await admitted(request, () => ctx.limiter.admitSetup(request.ip));
      const hashOfToken = tokenHash(request.body.token);
      // an unknown, used or expired token costs no scrypt
      if (!(await ctx.db.setupTokenUser(hashOfToken, ctx.now())))
        throw new HttpException(panelErrors.setupToken());
      const problem = await passwordProblem(request.body.password);
      if (problem) throw new HttpException(errors.adminValidation(problem, { password: [problem] }));
      const hash = await hashPassword(request.body.password);
      const userId = await ctx.db.useSetupToken(hashOfToken, hash, ctx.now());
      if (!userId) throw new HttpException(panelErrors.setupToken());
      // a new password ends every session: their live streams too, on every replica
      await ctx.streams.revoke({ userId });
      return reply.code(204).send();
    },
  );

  /** Sign-in: a new session id every time (no fixation), the CSRF token in the body. */
  app.post(
    '/panel/api/session',
    { schema: { body: z.object({ email, password }) } },
    async (request, reply) => {
      const { email: addr, password: pw } = request.body;
      await admitted(request, () => ctx.limiter.admit(addr, request.ip));
      const user = await ctx.db.userByEmail(addr);
      const valid = await verifyPassword(pw, user?.passwordHash ?? (await DUMMY_HASH));
      if (!user?.passwordHash || !valid) throw new HttpException(panelErrors.wrongPassword());
      await ctx.limiter.succeeded(addr, request.ip).catch(() => {});
      const cookie = newToken();
      const csrf = newToken();
      await ctx.db.createSession(tokenHash(cookie), user.id, csrf, ctx.now());
      reply.header('Set-Cookie', sessionCookie(cookie, SESSION_ABSOLUTE_MS / 1000));
      reply.header('Cache-Control', 'no-store');
      return reply.code(200).send(await me(ctx, request, user.id, addr, csrf));
    },
  );
};

/** The signed-in user: who am I, sign out, sign out everywhere (each closes the live streams it ends). */
export const sessionRoutes: PanelRoutes = (app, ctx) => {
  app.get('/panel/api/me', async (request) => {
    const s = request.session!;
    return me(ctx, request, s.userId, s.email, s.csrfToken);
  });

  app.delete('/panel/api/session', async (request, reply) => {
    await ctx.db.deleteSession(request.session!.id);
    await ctx.streams.revoke({ sessionId: request.session!.id });
    return reply.header('Set-Cookie', clearedCookie()).code(204).send();
  });

  /**
   * Password change: the current password (counted like a sign-in, before hashing), a new one under
   * the policy. Every other session ends, and every live stream of the user closes.
   */
  app.put(
    '/panel/api/password',
    { schema: { body: z.object({ currentPassword: password, newPassword: password }) } },
    async (request, reply) => {
      const s = request.session!;
      await admitted(request, () => ctx.limiter.admit(s.email, request.ip));
      const user = await ctx.db.userByEmail(s.email);
      if (!user?.passwordHash || !(await verifyPassword(request.body.currentPassword, user.passwordHash))) {
        const m = 'Senha atual incorreta.';
        throw new HttpException(errors.adminValidation(m, { currentPassword: [m] }));
      }
      const problem = await passwordProblem(request.body.newPassword);
      if (problem) throw new HttpException(errors.adminValidation(problem, { newPassword: [problem] }));
      await ctx.limiter.succeeded(s.email, request.ip).catch(() => {});
      await ctx.db.changePassword(s.userId, await hashPassword(request.body.newPassword), s.id);
      await ctx.streams.revoke({ userId: s.userId });
      return reply.code(204).send();
    },
  );

  /** Ends every session of the user, this one included. */
  app.post('/panel/api/sessions/sign-out-everywhere', async (request, reply) => {
    const ended = await ctx.db.deleteUserSessions(request.session!.userId);
    await ctx.streams.revoke({ userId: request.session!.userId });
    return reply.header('Set-Cookie', clearedCookie()).code(200).send({ ended });
  });
};
