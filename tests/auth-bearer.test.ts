import { type AuthTestKit, authTestKit } from '@od/auth/test-support';
import { startStack, type TestStack } from '@od/testing';
import { createSigner } from 'fast-jwt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/** Bearer checks on a real protected route: GET /v1/merchant/{merchantId} (merchant:read). */
describe('bearer tokens on protected routes, pause/resume/revoke at every gateway', () => {
  let stack: TestStack;
  let kit: AuthTestKit;
  let cred: { merchantId: string; clientId: string; clientSecret: string };
  let token: string;

  beforeAll(async () => {
    stack = await startStack({ gateways: 2, env: { RATE_LIMIT_ENABLED: 'false' } });
    kit = await authTestKit(stack);
    cred = await kit.credential(['merchant:read', 'orders:read']);
    const res = await kit.token(cred.clientId, cred.clientSecret);
    expect(res.status).toBe(200);
    token = (await res.json()).access_token;
  });
  afterAll(async () => {
    await kit?.close();
    await stack?.stop();
  });

  const get = (path: string, auth: string | undefined, gateway = 0) =>
    stack.api(path, { headers: auth === undefined ? {} : { authorization: auth } }, gateway);
  const merchant = (auth: string | undefined, gateway = 0) =>
    get(`/v1/merchant/${cred.merchantId}`, auth, gateway);

  async function expectUnauthenticated(res: Response) {
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/);
    expect(await res.text()).toBe('');
  }

  async function expectInvalidToken(res: Response) {
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/);
    const json = await res.json();
    expect(json.error).toBe('invalid_token');
    expect(typeof json.message).toBe('string');
  }

  const now = () => Math.floor(Date.now() / 1000);
  const claims = () => ({ merchant_id: cred.merchantId, client_id: cred.clientId, scope: 'merchant:read' });

  it('a token from the token endpoint opens the route at both gateways', async () => {
    for (const g of [0, 1]) {
      const res = await merchant(`Bearer ${token}`, g);
      expect(res.status).toBe(200);
      expect((await res.json()).id).toBe(cred.merchantId);
    }
  });

  it('401 with empty body and WWW-Authenticate: missing, malformed, expired, wrong key, alg none', async () => {
    await expectUnauthenticated(await merchant(undefined));
    await expectUnauthenticated(await merchant(''));
    await expectUnauthenticated(await merchant(`Bearer`));
    await expectUnauthenticated(await merchant(`Basic ${Buffer.from('a:b').toString('base64')}`));
    await expectUnauthenticated(await merchant('Bearer not.a.jwt'));
    await expectUnauthenticated(await merchant(`Bearer ${token.slice(0, -3)}abc`));
    const key = stack.config.JWT_SECRET;
    const expired = createSigner({ key, algorithm: 'HS256' })({
      ...claims(),
      iat: now() - 7200,
      exp: now() - 3600,
    });
    await expectUnauthenticated(await merchant(`Bearer ${expired}`));
    const wrongKey = createSigner({ key: 'another-secret-0123456789abcdef0123456789', expiresIn: 3600_000 })(
      claims(),
    );
    await expectUnauthenticated(await merchant(`Bearer ${wrongKey}`));
    const b64 = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');
    const none = `${b64({ alg: 'none', typ: 'JWT' })}.${b64({ ...claims(), iat: now(), exp: now() + 3600 })}.`;
    await expectUnauthenticated(await merchant(`Bearer ${none}`));
    const noExp = createSigner({ key, algorithm: 'HS256', noTimestamp: true })(claims());
    await expectUnauthenticated(await merchant(`Bearer ${noExp}`));
    const hs512 = createSigner({ key, algorithm: 'HS512', expiresIn: 3600_000 })(claims());
    await expectUnauthenticated(await merchant(`Bearer ${hs512}`));
  });

  it('403 insufficient_scope when the credential lacks the route scope', async () => {
    const other = await kit.credential(['orders:read']);
    const t = (await (await kit.token(other.clientId, other.clientSecret)).json()).access_token;
    const res = await get(`/v1/merchant/${other.merchantId}`, `Bearer ${t}`);
    expect(res.status).toBe(403);
    const json = await res.json();
    expect(json.error).toBe('insufficient_scope');
    expect(typeof json.message).toBe('string');
  });

  it('pause is effective on the very next request at BOTH gateways; resume restores; revoke is permanent', async () => {
    const auth = `Bearer ${token}`;
    const pause = await stack.admin('POST', `/admin/v1/credentials/${cred.clientId}/pause`);
    expect(pause.status).toBe(200);
    expect((await pause.json()).status).toBe('PAUSED');
    await expectInvalidToken(await merchant(auth, 1));
    await expectInvalidToken(await merchant(auth, 0));
    // the token endpoint refuses a paused credential
    const t = await kit.token(cred.clientId, cred.clientSecret, 1);
    expect(t.status).toBe(401);
    expect(await t.json()).toEqual({ error: 'invalid_client' });

    const resume = await stack.admin('POST', `/admin/v1/credentials/${cred.clientId}/resume`);
    expect(resume.status).toBe(200);
    expect((await resume.json()).status).toBe('ACTIVE');
    expect((await merchant(auth, 1)).status).toBe(200);
    expect((await merchant(auth, 0)).status).toBe(200);

    const revoke = await stack.admin('POST', `/admin/v1/credentials/${cred.clientId}/revoke`);
    expect(revoke.status).toBe(200);
    expect((await revoke.json()).status).toBe('REVOKED');
    await expectInvalidToken(await merchant(auth, 1));
    await expectInvalidToken(await merchant(auth, 0));
    for (const action of ['resume', 'pause']) {
      const r = await stack.admin('POST', `/admin/v1/credentials/${cred.clientId}/${action}`);
      expect(r.status).toBe(409);
      expect((await r.json()).error).toBe('credential_revoked');
    }
    await expectInvalidToken(await merchant(auth, 0));
    const again = await kit.token(cred.clientId, cred.clientSecret);
    expect(again.status).toBe(401);
    expect(await again.json()).toEqual({ error: 'invalid_client' });
  });

  it('a pause reaches a gateway replica started after it (the bucket is the source)', async () => {
    const c = await kit.credential(['merchant:read']);
    const t = (await (await kit.token(c.clientId, c.clientSecret)).json()).access_token;
    expect((await stack.admin('POST', `/admin/v1/credentials/${c.clientId}/pause`)).status).toBe(200);
    const late = (await stack.startService('gateway')) as unknown as { publicUrl: string };
    const res = await fetch(`${late.publicUrl}/v1/merchant/${c.merchantId}`, {
      headers: { authorization: `Bearer ${t}` },
    });
    await expectInvalidToken(res);
  });
});
