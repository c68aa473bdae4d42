import { createPool, type Pool } from '@od/db';
import { startStack, type TestStack } from '@od/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SIGN_IN_LIMITS } from '../db/login-limiter.ts';
import { hashPassword } from '../domain/password.ts';
import { tokenHash } from '../domain/tokens.ts';
import { STREAMS_PER_SESSION } from '../live-streams.ts';
import { type PanelHandle, start as startPanel } from '../main.ts';
import {
  createStore,
  guessUntilDelayed,
  invite,
  openStream,
  panelFetch,
  setPassword,
  settlesWithin,
  signIn,
  signInRequest,
  storeUser,
} from '../test-helpers.ts';

const from = (ip: string) => ({ 'x-forwarded-for': ip });
let n = 0;
/** a fresh client network per test, so the per-network caps of one test never reach another */
const net = () => `198.18.${Math.floor(++n / 250)}.${n % 250}`;

/** Panel accounts through real HTTP (issue 22 item 4), the panel trusting a local proxy's X-Forwarded-For. */
describe('panel accounts', () => {
  let stack: TestStack;
  let replica2: PanelHandle;
  let pool: Pool;

  beforeAll(async () => {
    stack = await startStack({
      panel: true,
      env: { RATE_LIMIT_ENABLED: 'false' },
      serviceEnv: { panel: { TRUST_PROXY: '127.0.0.1,::1' } },
    });
    replica2 = await startPanel({ ...stack.config, TRUST_PROXY: '127.0.0.1,::1' });
    pool = createPool(stack.config.DATABASE_URL, 'panel', 1);
  }, 90_000);
  afterAll(async () => {
    await pool?.end();
    await replica2?.stop();
    await stack?.stop();
  });

  describe('sign-in limits, counted before hashing', () => {
    it('a concurrent burst of guesses gets the 3 free attempts and one more, the rest wait', async () => {
      const u = await storeUser(stack, 'STAFF');
      const ip = net();
      const started = Date.now();
      const answers = await Promise.all(
        Array.from({ length: 12 }, () => signInRequest(stack, u.email, 'errada-errada-1', from(ip))),
      );
      // a burst that lasts T s on a loaded machine can outlast delays: 1 + 2 + … + 2^(m-1) = 2^m - 1 <= T
      const outlasted = Math.floor(Math.log2((Date.now() - started) / 1000 + 1));
      const statuses = answers.map((r) => r.status);
      const free = SIGN_IN_LIMITS.freeAttempts;
      expect(statuses.filter((s) => s === 401).length).toBeGreaterThanOrEqual(free + 1);
      expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(free + 1 + outlasted);
      expect(statuses.filter((s) => s === 429).length).toBe(12 - statuses.filter((s) => s === 401).length);
      const refused = answers.find((r) => r.status === 429)!;
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    });

    it("the owner signs in from its own network while someone else's guesses slow only theirs", async () => {
      const u = await storeUser(stack, 'STAFF');
      const attacker = net();
      const guessed = await guessUntilDelayed(stack, u.email, from(attacker));
      const right = await signInRequest(stack, u.email, u.password, from(attacker));
      // answered before the attacker's delay could end: refused (only a stall longer than 3 guesses ends it first)
      if (Date.now() < guessed.delayedUntil) expect(right.status).toBe(429);
      expect((await signInRequest(stack, u.email, u.password, from(net()))).status).toBe(200);
    }, 90_000);

    it('an IPv6 client is its /64: rotating addresses inside it reaches the network cap', async () => {
      const statuses: number[] = [];
      for (let i = 1; i <= 31; i++)
        statuses.push(
          (
            await signInRequest(
              stack,
              `ninguem${i}@loja.test`,
              'errada-errada-1',
              from(`2001:db8:77:1::${i}`),
            )
          ).status,
        );
      expect(statuses.slice(0, 30).every((s) => s === 401)).toBe(true);
      expect(statuses[30]).toBe(429);
      expect(
        (await signInRequest(stack, 'ninguem@loja.test', 'errada-errada-1', from('2001:db8:77:2::1'))).status,
      ).toBe(401);
    }, 60_000);
    it('Redis unreachable: sign-in and setup fail closed (503), never unlimited guesses', async () => {
      const blind = await startPanel({ ...stack.config, REDIS_URL: 'redis://127.0.0.1:1' });
      try {
        const signIn = await fetch(`${blind.url}/panel/api/session`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ email: 'ninguem@loja.test', password: 'errada-errada-1' }),
        });
        expect(signIn.status).toBe(503);
        const setup = await fetch(`${blind.url}/panel/api/password-setup`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ token: 'qualquer', password: 'uma-senha-bem-longa' }),
        });
        expect(setup.status).toBe(503);
      } finally {
        await blind.stop();
      }
    });
  });

  describe('password setup', () => {
    it('an unknown token costs no scrypt; setups are limited per network', async () => {
      const before = process.cpuUsage();
      await hashPassword('calibração-de-uma-senha');
      const oneHash = process.cpuUsage(before);
      const ip = net();
      const start = process.cpuUsage();
      for (let i = 0; i < 10; i++)
        expect((await setPassword(stack, `desconhecido-${i}`, 'uma-senha-bem-longa', from(ip))).status).toBe(
          400,
        );
      const used = process.cpuUsage(start);
      // ten scrypt runs would cost at least ten times one; lookups cost a small part of one
      expect(used.user + used.system).toBeLessThan(3 * (oneHash.user + oneHash.system));
      for (let i = 10; i < SIGN_IN_LIMITS.setupPerIp; i++)
        expect((await setPassword(stack, `desconhecido-${i}`, 'uma-senha-bem-longa', from(ip))).status).toBe(
          400,
        );
      const limited = await setPassword(stack, 'desconhecido-x', 'uma-senha-bem-longa', from(ip));
      expect(limited.status).toBe(429);
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    });

    it('an invalid invite is answered by the op: 400 in the admin form naming the field, nothing created', async () => {
      const merchantId = await createStore(stack, 'Loja convite');
      const users = `/admin/v1/merchants/${merchantId}/users`;
      for (const [body, field] of [
        [{ email: 'não é e-mail', role: 'STAFF' }, 'email'],
        [{ email: 'a@loja.test', role: 'ADMIN' }, 'role'],
      ] as const) {
        const r = await stack.admin('POST', users, body);
        expect(r.status).toBe(400);
        const b = await r.json();
        expect(b).toMatchObject({ error: 'validation_error', message: 'Convite inválido.' });
        expect(Object.keys(b.errors)).toEqual([field]);
      }
      expect(await (await stack.admin('GET', users)).json()).toEqual([]);
    });

    it('passwords: at least 12 characters and not among the common breached ones', async () => {
      const merchantId = await createStore(stack, 'Loja senha');
      const inv = await invite(stack, merchantId, 'politica@loja.test', 'STAFF');
      const short = await setPassword(stack, inv.setupToken, 'curta-11chr', from(net()));
      expect(short.status).toBe(400);
      expect((await short.json()).message).toMatch(/no mínimo 12/);
      const common = await setPassword(stack, inv.setupToken, 'qwerty123456', from(net()));
      expect(common.status).toBe(400);
      expect((await common.json()).message).toMatch(/mais usadas/);
      expect((await setPassword(stack, inv.setupToken, 'uma-senha-bem-longa', from(net()))).status).toBe(204);
    });

    it('a used setup token revokes the user’s other outstanding tokens', async () => {
      const merchantId = await createStore(stack, 'Loja tokens');
      const first = await invite(stack, merchantId, 'dois-links@loja.test', 'STAFF');
      const second = await invite(stack, merchantId, 'dois-links@loja.test', 'OWNER');
      expect((await setPassword(stack, second.setupToken, 'uma-senha-bem-longa', from(net()))).status).toBe(
        204,
      );
      expect((await setPassword(stack, first.setupToken, 'outra-senha-bem-longa', from(net()))).status).toBe(
        400,
      );
      expect(
        (await signInRequest(stack, 'dois-links@loja.test', 'uma-senha-bem-longa', from(net()))).status,
      ).toBe(200);
      expect(second.existingAccount).toBe(false); // no password yet: a second token is right
    });

    it('an invite to an existing account grants the store and leaves the password alone', async () => {
      const u = await storeUser(stack, 'OWNER');
      const storeB = await createStore(stack, 'Loja B');
      const r = await stack.admin('POST', `/admin/v1/merchants/${storeB}/users`, {
        email: u.email,
        role: 'STAFF',
      });
      expect(r.status).toBe(201);
      const body = await r.json();
      expect(body).toEqual({ userId: u.userId, email: u.email, role: 'STAFF', existingAccount: true });
      const again = await signIn(stack, u.email, u.password);
      expect(again.me.stores.map((s) => s.merchantId)).toEqual([u.merchantId, storeB]);
    });
  });

  describe('support resets a forgotten password', () => {
    it('a token for that user only; using it replaces the password and closes the user’s streams', async () => {
      const u = await storeUser(stack, 'STAFF');
      const stream = await openStream(replica2.url, u.client.cookie, u.merchantId);
      const reset = `/admin/v1/merchants/${u.merchantId}/users/${u.userId}/password-reset`;
      const r = await stack.admin('POST', reset);
      expect(r.status).toBe(201);
      const body = await r.json();
      expect(body).toMatchObject({ userId: u.userId, email: u.email });
      expect(body.setupUrl).toContain(body.setupToken);
      // the current password stays valid until the token is used
      expect((await signInRequest(stack, u.email, u.password, from(net()))).status).toBe(200);
      expect((await setPassword(stack, body.setupToken, 'senha-redefinida-1', from(net()))).status).toBe(204);
      expect(await settlesWithin(stream.ended, 3000)).toBe(true);
      expect((await signInRequest(stack, u.email, u.password, from(net()))).status).toBe(401);
      expect((await signInRequest(stack, u.email, 'senha-redefinida-1', from(net()))).status).toBe(200);
      const elsewhere = await createStore(stack, 'Loja alheia');
      expect(
        (await stack.admin('POST', `/admin/v1/merchants/${elsewhere}/users/${u.userId}/password-reset`))
          .status,
      ).toBe(404);
    });
  });

  describe('session cookie and guards', () => {
    it('the session cookie is __Host- prefixed: Secure, Path=/, no Domain; the unprefixed name is not it', async () => {
      const u = await storeUser(stack, 'STAFF');
      const r = await signInRequest(stack, u.email, u.password, from(net()));
      const cookie = r.headers.get('set-cookie') ?? '';
      expect(cookie).toMatch(/^__Host-od_panel=[\w-]{43}; /);
      expect(cookie).toMatch(/; Secure/);
      expect(cookie).toMatch(/; Path=\/;/);
      expect(cookie).not.toMatch(/Domain=/i);
      const value = cookie.split(';')[0].split('=')[1];
      expect(
        (await panelFetch(stack, '/panel/api/me', { headers: { cookie: `od_panel=${value}` } })).status,
      ).toBe(401);
    });

    it('session and CSRF come before the body: anonymous or token-less callers never see validation details', async () => {
      const u = await storeUser(stack, 'OWNER');
      const path = `/panel/api/stores/${u.merchantId}/credentials`;
      const init = { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"scopes":7}' };
      const anonymous = await panelFetch(stack, path, init);
      expect(anonymous.status).toBe(401);
      expect(await anonymous.json()).not.toHaveProperty('errors');
      const noCsrf = await panelFetch(stack, path, {
        ...init,
        headers: { ...init.headers, cookie: u.client.cookie },
      });
      expect(noCsrf.status).toBe(403);
      const unparsable = await panelFetch(stack, path, { ...init, body: '{not json' });
      expect(unparsable.status).toBe(401);
      expect((await u.client.call('POST', path, { scopes: 7 })).status).toBe(400);
    });

    it('a password change needs the current password and ends the other sessions', async () => {
      const u = await storeUser(stack, 'STAFF');
      const other = await signIn(stack, u.email, u.password);
      const wrong = await u.client.call('PUT', '/panel/api/password', {
        currentPassword: 'nao-e-esta-senha',
        newPassword: 'nova-senha-bem-longa',
      });
      expect(wrong.status).toBe(400);
      const ok = await u.client.call('PUT', '/panel/api/password', {
        currentPassword: u.password,
        newPassword: 'nova-senha-bem-longa',
      });
      expect(ok.status).toBe(204);
      expect((await other.call('GET', '/panel/api/me')).status).toBe(401);
      expect((await u.client.call('GET', '/panel/api/me')).status).toBe(200);
      expect((await signInRequest(stack, u.email, 'nova-senha-bem-longa', from(net()))).status).toBe(200);
    });
  });

  describe('live streams end with the authorization that opened them, on every replica', () => {
    const CLOSES_WITHIN_MS = 3000;

    it('sign-out on one replica closes the session’s stream on the other; other sessions keep theirs', async () => {
      const u = await storeUser(stack, 'STAFF');
      const other = await signIn(stack, u.email, u.password);
      const s = await openStream(replica2.url, u.client.cookie, u.merchantId);
      const kept = await openStream(replica2.url, other.cookie, u.merchantId);
      expect((await u.client.call('DELETE', '/panel/api/session')).status).toBe(204);
      expect(await settlesWithin(s.ended, CLOSES_WITHIN_MS)).toBe(true);
      expect(await settlesWithin(kept.ended, 300)).toBe(false);
      kept.abort();
    });

    it('sign-out everywhere, a password change and removal from the store close them', async () => {
      const a = await storeUser(stack, 'STAFF');
      const s1 = await openStream(replica2.url, a.client.cookie, a.merchantId);
      expect((await a.client.call('POST', '/panel/api/sessions/sign-out-everywhere')).status).toBe(200);
      expect(await settlesWithin(s1.ended, CLOSES_WITHIN_MS)).toBe(true);

      const b = await storeUser(stack, 'STAFF');
      const s2 = await openStream(replica2.url, b.client.cookie, b.merchantId);
      const change = await b.client.call('PUT', '/panel/api/password', {
        currentPassword: b.password,
        newPassword: 'nova-senha-bem-longa',
      });
      expect(change.status).toBe(204);
      expect(await settlesWithin(s2.ended, CLOSES_WITHIN_MS)).toBe(true);

      const c = await storeUser(stack, 'STAFF');
      const storeB = await createStore(stack, 'Outra loja');
      await invite(stack, storeB, c.email, 'STAFF');
      const inA = await openStream(replica2.url, c.client.cookie, c.merchantId);
      const inB = await openStream(replica2.url, c.client.cookie, storeB);
      expect(
        (await stack.admin('DELETE', `/admin/v1/merchants/${c.merchantId}/users/${c.userId}`)).status,
      ).toBe(204);
      expect(await settlesWithin(inA.ended, CLOSES_WITHIN_MS)).toBe(true);
      expect(await settlesWithin(inB.ended, 300)).toBe(false);
      inB.abort();
    });

    it('a stream closes when its session expires', async () => {
      const u = await storeUser(stack, 'STAFF');
      const id = tokenHash(u.client.cookie.split('=')[1]);
      await pool.query("UPDATE sessions SET expires_at = now() + interval '2 seconds' WHERE id = $1", [id]);
      const s = await openStream(replica2.url, u.client.cookie, u.merchantId);
      expect(await settlesWithin(s.ended, 2000 + CLOSES_WITHIN_MS)).toBe(true);
    });

    it(`a session holds at most ${STREAMS_PER_SESSION} streams: the next closes the oldest`, async () => {
      const u = await storeUser(stack, 'STAFF');
      const streams = [];
      for (let i = 0; i <= STREAMS_PER_SESSION; i++)
        streams.push(await openStream(stack.panel!.url, u.client.cookie, u.merchantId));
      expect(await settlesWithin(streams[0].ended, CLOSES_WITHIN_MS)).toBe(true);
      for (const s of streams.slice(1)) expect(await settlesWithin(s.ended, 100)).toBe(false);
      for (const s of streams) s.abort();
    });
  });
});
