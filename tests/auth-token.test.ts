import { type AuthTestKit, authTestKit } from '@od/auth/test-support';
import { startStack, type TestStack } from '@od/testing';
import { createDecoder } from 'fast-jwt';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
const JSON_H = { 'content-type': 'application/json' };
const form = (o: Record<string, string>) => new URLSearchParams(o).toString();
const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;

describe('token endpoint (POST /oauth/token, /v1/oauth/token)', () => {
  let stack: TestStack;
  let kit: AuthTestKit;
  let cred: { merchantId: string; clientId: string; clientSecret: string };

  beforeAll(async () => {
    // this suite sends far more than 60 token requests a minute: the limits have their own suite
    stack = await startStack({ env: { RATE_LIMIT_ENABLED: 'false' } });
    kit = await authTestKit(stack);
    cred = await kit.credential(['orders:read', 'merchant:read']);
  });
  afterAll(async () => {
    await kit?.close();
    await stack?.stop();
  });

  const post = (path: string, init: RequestInit) => stack.api(path, { method: 'POST', ...init });
  const good = () => ({
    grant_type: 'client_credentials',
    client_id: cred.clientId,
    client_secret: cred.clientSecret,
  });

  async function expectNoStore(res: Response) {
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('pragma')).toBe('no-cache');
  }

  async function expectToken(res: Response) {
    expect(res.status).toBe(200);
    await expectNoStore(res);
    const body = await res.json();
    expect(Object.keys(body).sort()).toEqual(
      ['access_token', 'accessToken', 'token_type', 'tokenType', 'expires_in', 'expiresIn', 'scope'].sort(),
    );
    expect(body.accessToken).toBe(body.access_token);
    expect(body.token_type).toBe('bearer');
    expect(body.tokenType).toBe('bearer');
    expect(body.expires_in).toBe(3600);
    expect(body.expiresIn).toBe(3600);
    expect(body.scope).toBe('orders:read merchant:read');
    return body.access_token as string;
  }

  it('issues an HS256 token with the credential claims, valid 3600 s, on both paths', async () => {
    for (const path of ['/oauth/token', '/v1/oauth/token']) {
      const before = Math.floor(Date.now() / 1000);
      const token = await expectToken(await post(path, { headers: FORM, body: form(good()) }));
      const decoded = createDecoder({ complete: true })(token);
      expect(decoded.header.alg).toBe('HS256');
      const c = decoded.payload;
      expect(c.merchant_id).toBe(cred.merchantId);
      expect(c.client_id).toBe(cred.clientId);
      expect(c.scope).toBe('orders:read merchant:read');
      expect(c.exp - c.iat).toBe(3600);
      expect(c.iat).toBeGreaterThanOrEqual(before - 5);
      expect(c.iat).toBeLessThanOrEqual(Math.floor(Date.now() / 1000) + 5);
      // never carries a secret
      expect(token.includes(cred.clientSecret)).toBe(false);
    }
  });

  it('accepts JSON with snake_case and camelCase names, and charset parameters', async () => {
    await expectToken(await post('/oauth/token', { headers: JSON_H, body: JSON.stringify(good()) }));
    await expectToken(
      await post('/v1/oauth/token', {
        headers: { 'content-type': 'application/json; charset=utf-8' },
        body: JSON.stringify({
          grantType: 'client_credentials',
          clientId: cred.clientId,
          clientSecret: cred.clientSecret,
        }),
      }),
    );
    await expectToken(
      await post('/oauth/token', {
        headers: { 'content-type': 'application/x-www-form-urlencoded; charset=UTF-8' },
        body: form(good()),
      }),
    );
  });

  it('accepts Authorization: Basic with only grant_type in the body (form and JSON)', async () => {
    const authorization = basic(cred.clientId, cred.clientSecret);
    await expectToken(
      await post('/oauth/token', {
        headers: { ...FORM, authorization },
        body: form({ grant_type: 'client_credentials' }),
      }),
    );
    await expectToken(
      await post('/v1/oauth/token', {
        headers: { ...JSON_H, authorization },
        body: JSON.stringify({ grant_type: 'client_credentials' }),
      }),
    );
  });

  it('the body wins when body and Basic header both carry credentials', async () => {
    await expectToken(
      await post('/oauth/token', {
        headers: { ...FORM, authorization: basic(cred.clientId, 'wrong-secret') },
        body: form(good()),
      }),
    );
    const res = await post('/oauth/token', {
      headers: { ...FORM, authorization: basic(cred.clientId, cred.clientSecret) },
      body: form({ ...good(), client_secret: 'wrong-secret' }),
    });
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ error: 'invalid_client' });
  });

  it('401 invalid_client to Basic authentication carries WWW-Authenticate: Basic (RFC 6749 5.2); not to the body', async () => {
    const viaBasic = await post('/oauth/token', {
      headers: { ...FORM, authorization: basic(cred.clientId, 'wrong-secret') },
      body: form({ grant_type: 'client_credentials' }),
    });
    expect(viaBasic.status).toBe(401);
    expect(viaBasic.headers.get('www-authenticate')).toMatch(/^Basic realm="opendelivery"/);
    expect(await viaBasic.json()).toEqual({ error: 'invalid_client' });
    const viaBody = await post('/oauth/token', {
      headers: FORM,
      body: form({ ...good(), client_secret: 'wrong-secret' }),
    });
    expect(viaBody.status).toBe(401);
    expect(viaBody.headers.get('www-authenticate')).toBeNull();
  });

  it('400 invalid_request: missing grant_type, client_id or client_secret', async () => {
    const { grant_type: _g, ...noGrant } = good();
    const { client_id: _i, ...noId } = good();
    const { client_secret: _s, ...noSecret } = good();
    for (const [body, headers] of [
      [form(noGrant), FORM],
      [form(noId), FORM],
      [form(noSecret), FORM],
      [JSON.stringify(noSecret), JSON_H],
      [JSON.stringify({}), JSON_H],
      ['', FORM],
      [form({ ...good(), client_secret: '' }), FORM],
    ] as const) {
      const res = await post('/oauth/token', { headers, body });
      expect(res.status, body).toBe(400);
      await expectNoStore(res);
      const json = await res.json();
      expect(json.error).toBe('invalid_request');
      expect(typeof json.error_description).toBe('string');
      expect(JSON.stringify(json)).not.toContain(cred.clientSecret);
    }
    // no body at all
    const res = await post('/v1/oauth/token', {});
    expect(res.status).toBe(400);
    expect((await res.json()).error).toBe('invalid_request');
  });

  it('400 invalid_request: unreadable JSON or form, non-object JSON, non-string values', async () => {
    for (const [body, headers] of [
      ['{"grant_type":', JSON_H],
      ['[1,2]', JSON_H],
      ['"client_credentials"', JSON_H],
      ['null', JSON_H],
      [JSON.stringify({ ...good(), client_id: 42 }), JSON_H],
      ['grant_type=client_credentials&client_id=%zz', FORM],
      [`${form(good())}&client_id=${cred.clientId}`, FORM],
    ] as const) {
      const res = await post('/oauth/token', { headers, body });
      expect(res.status, body).toBe(400);
      await expectNoStore(res);
      const json = await res.json();
      expect(json).toMatchObject({ error: 'invalid_request', error_description: expect.any(String) });
    }
  });

  it('400 invalid_request: malformed Basic header', async () => {
    for (const authorization of [
      'Basic',
      'Basic !!!notbase64',
      `Basic ${Buffer.from('no-colon-here').toString('base64')}`,
      `Basic ${Buffer.from(`${cred.clientId}:`).toString('base64')}`,
      `Basic ${Buffer.from(':secret').toString('base64')}`,
    ]) {
      const res = await post('/oauth/token', {
        headers: { ...FORM, authorization },
        body: form({ grant_type: 'client_credentials' }),
      });
      expect(res.status, authorization).toBe(400);
      expect((await res.json()).error).toBe('invalid_request');
    }
  });

  it('400 unsupported_grant_type for any other grant', async () => {
    for (const grant of ['password', 'authorization_code', 'refresh_token', 'CLIENT_CREDENTIALS']) {
      const res = await post('/oauth/token', { headers: FORM, body: form({ ...good(), grant_type: grant }) });
      expect(res.status).toBe(400);
      await expectNoStore(res);
      const json = await res.json();
      expect(json.error).toBe('unsupported_grant_type');
      expect(typeof json.error_description).toBe('string');
    }
  });

  it('401 invalid_client, identical for an unknown client, a wrong secret and a malformed id', async () => {
    const bodies = [
      form({ ...good(), client_secret: `${cred.clientSecret}x` }),
      form({ ...good(), client_id: 'odc_000000000000000000000000' }),
      form({ ...good(), client_id: 'not-a-client' }),
      form({ ...good(), client_secret: 'a'.repeat(2000) }),
    ];
    const texts = new Set<string>();
    for (const body of bodies) {
      const res = await post('/oauth/token', { headers: FORM, body });
      expect(res.status).toBe(401);
      await expectNoStore(res);
      texts.add(await res.text());
    }
    expect([...texts]).toEqual(['{"error":"invalid_client"}']);
  });

  it('401 invalid_client for a paused and a revoked credential; resume makes it work again', async () => {
    const c = await kit.credential(['orders:read']);
    await expectToken2(c);
    expect((await stack.admin('POST', `/admin/v1/credentials/${c.clientId}/pause`)).status).toBe(200);
    let res = await kit.token(c.clientId, c.clientSecret);
    expect(res.status).toBe(401);
    expect(await res.text()).toBe('{"error":"invalid_client"}');
    expect((await stack.admin('POST', `/admin/v1/credentials/${c.clientId}/resume`)).status).toBe(200);
    await expectToken2(c);
    expect((await stack.admin('POST', `/admin/v1/credentials/${c.clientId}/revoke`)).status).toBe(200);
    res = await kit.token(c.clientId, c.clientSecret);
    expect(res.status).toBe(401);
    expect(await res.text()).toBe('{"error":"invalid_client"}');
  });

  async function expectToken2(c: { clientId: string; clientSecret: string }) {
    const res = await kit.token(c.clientId, c.clientSecret);
    expect(res.status).toBe(200);
  }

  it('413 invalid_request above 4096 bytes; 4096 bytes are accepted', async () => {
    const base = form(good());
    const exact = `${base}&pad=${'x'.repeat(4096 - base.length - 5)}`;
    expect(Buffer.byteLength(exact)).toBe(4096);
    await expectToken(await post('/oauth/token', { headers: FORM, body: exact }));
    for (const path of ['/oauth/token', '/v1/oauth/token']) {
      const res = await post(path, { headers: FORM, body: `${exact}y` });
      expect(res.status).toBe(413);
      await expectNoStore(res);
      const json = await res.json();
      expect(json).toEqual({ error: 'invalid_request', error_description: expect.any(String) });
    }
    const big = await post('/oauth/token', {
      headers: JSON_H,
      body: JSON.stringify({ ...good(), pad: 'x'.repeat(5000) }),
    });
    expect(big.status).toBe(413);
  });

  it('415 invalid_request for a Content-Type other than form or JSON', async () => {
    for (const type of [
      'text/plain',
      'application/xml',
      'multipart/form-data; boundary=x',
      'application/jsonx',
    ]) {
      for (const path of ['/oauth/token', '/v1/oauth/token']) {
        const res = await post(path, { headers: { 'content-type': type }, body: form(good()) });
        expect(res.status, type).toBe(415);
        await expectNoStore(res);
        const json = await res.json();
        expect(json).toEqual({ error: 'invalid_request', error_description: expect.any(String) });
      }
    }
  });

  it('the secret is stored only as a keyed HMAC-SHA256 hash that never contains it', async () => {
    const c = await pgClient(stack);
    try {
      const { rows } = await c.query('SELECT secret_hash FROM auth.credential WHERE client_id = $1', [
        cred.clientId,
      ]);
      expect(rows).toHaveLength(1);
      const hash = rows[0].secret_hash as string;
      expect(hash).not.toBe(cred.clientSecret);
      expect(hash.includes(cred.clientSecret)).toBe(false);
      expect(hash).toMatch(/^hmac-sha256\$[A-Za-z0-9_-]{43}$/);
      const dump = await c.query('SELECT row_to_json(c)::text AS j FROM auth.credential c');
      for (const r of dump.rows) expect(r.j.includes(cred.clientSecret)).toBe(false);
    } finally {
      await c.end();
    }
  });

  // last: stops the auth service of this stack
  it('auth unavailable: a retryable 503 with Retry-After, never a 500 or a 401', async () => {
    await stack.services.auth?.stop();
    delete stack.services.auth;
    const res = await post('/oauth/token', { headers: FORM, body: form(good()) });
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBeTruthy();
    await expectNoStore(res);
    expect((await res.json()).error).toBe('temporarily_unavailable');
    const admin = await stack.admin('POST', `/admin/v1/credentials/${cred.clientId}/pause`);
    expect(admin.status).toBe(503);
  });
});

async function pgClient(stack: TestStack) {
  const c = new pg.Client({ connectionString: stack.config.DATABASE_URL });
  await c.connect();
  return c;
}
