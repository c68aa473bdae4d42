import { randomUUID } from 'node:crypto';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { loadRpcKeys, serveOp } from '@od/bus';
import { CATALOG_OPS, FEED_OPS, names } from '@od/contracts';
import { createLogger } from '@od/logger';
import { issueTestToken, startStack, type TestStack } from '@od/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * SPEC Errors table, the rows the gateway decides by itself (no service involved), plus the 500 row
 * (a service handler that throws) and the body limits. Rows decided by services are in
 * errors-services.test.ts.
 */
let stack: TestStack;
let nc: NatsConnection;

beforeAll(async () => {
  stack = await startStack({ services: [] });
  nc = await connect({ servers: stack.config.NATS_URL });
});
afterAll(async () => {
  await nc?.close();
  await stack?.stop();
});

const ORDER = '6f1c0f8e-0000-4000-8000-000000000001';
const form = (body: string, headers: Record<string, string> = {}) =>
  stack.api('/oauth/token', {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body,
  });

async function expectOauth(r: Response, status: number, error: string) {
  expect(r.status).toBe(status);
  const body = await r.json();
  expect(Object.keys(body).sort()).toEqual(['error', 'error_description']);
  expect(body.error).toBe(error);
  expect(typeof body.error_description).toBe('string');
}
async function expectBusiness(r: Response, status: number, error: string) {
  expect(r.status).toBe(status);
  expect(r.headers.get('content-type')).toContain('application/json');
  const body = await r.json();
  expect(Object.keys(body).sort()).toEqual(['error', 'message']);
  expect(body.error).toBe(error);
  return body;
}
async function expectProblem(r: Response, status: number) {
  expect(r.status).toBe(status);
  const body = await r.json();
  expect(body).toMatchObject({ type: expect.any(String), title: expect.any(String), status });
  expect(body.traceId).toBe(r.headers.get('x-request-id'));
  return body;
}

describe('token endpoint rows (RFC 6749 bodies)', () => {
  it('400 invalid_request: missing fields, unreadable body, malformed Basic header', async () => {
    await expectOauth(await form('grant_type=client_credentials'), 400, 'invalid_request');
    await expectOauth(await form('client_id=odc_x&client_secret=y'), 400, 'invalid_request');
    await expectOauth(
      await stack.api('/oauth/token', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"grant_type": "client_credentials",',
      }),
      400,
      'invalid_request',
    );
    await expectOauth(
      await form('grant_type=client_credentials', { authorization: 'Basic %%%not-base64' }),
      400,
      'invalid_request',
    );
  });

  it('400 unsupported_grant_type', async () => {
    await expectOauth(
      await form('grant_type=password&client_id=odc_0123456789abcdef01234567&client_secret=x'),
      400,
      'unsupported_grant_type',
    );
  });

  it('413 invalid_request above 4096 bytes; 4096 is still read', async () => {
    const pad = (n: number) => `grant_type=client_credentials&x=${'a'.repeat(n - 32)}`;
    await expectOauth(await form(pad(4097)), 413, 'invalid_request');
    const ok = await form(pad(4096));
    expect(ok.status).not.toBe(413);
    await ok.arrayBuffer();
  });

  it('415 invalid_request for another Content-Type', async () => {
    await expectOauth(
      await stack.api('/oauth/token', {
        method: 'POST',
        headers: { 'content-type': 'text/plain' },
        body: 'grant_type=client_credentials',
      }),
      415,
      'invalid_request',
    );
  });
});

describe('bearer rows', () => {
  it('401 empty body with WWW-Authenticate: no token, invalid token, expired token', async () => {
    for (const authorization of [undefined, 'Bearer abc.def.ghi', 'Basic Zm9vOmJhcg==', 'Bearer ']) {
      const r = await stack.api(`/v1/orders/${ORDER}`, { headers: authorization ? { authorization } : {} });
      expect(r.status).toBe(401);
      expect(r.headers.get('www-authenticate')).toMatch(/^Bearer/);
      expect(await r.text()).toBe('');
    }
    const { createSigner } = await import('fast-jwt');
    const expired = createSigner({ key: stack.config.JWT_SECRET, algorithm: 'HS256' })({
      merchant_id: randomUUID(),
      client_id: 'odc_0123456789abcdef01234567',
      scope: 'orders:read',
      exp: Math.floor(Date.now() / 1000) - 10,
    });
    const r = await stack.api(`/v1/orders/${ORDER}`, { headers: { authorization: `Bearer ${expired}` } });
    expect(r.status).toBe(401);
    expect(await r.text()).toBe('');
  });

  it('401 invalid_token for a paused or revoked credential', async () => {
    for (const status of ['PAUSED', 'REVOKED'] as const) {
      const t = await issueTestToken(stack, { record: { status } });
      const r = await stack.api('/v1/events:polling', { headers: { authorization: `Bearer ${t.token}` } });
      await expectBusiness(r, 401, 'invalid_token');
    }
  });

  it('403 insufficient_scope', async () => {
    const t = await issueTestToken(stack, { scopes: ['merchant:read'] });
    const r = await stack.api('/v1/events:polling', { headers: { authorization: `Bearer ${t.token}` } });
    await expectBusiness(r, 403, 'insufficient_scope');
  });
});

describe('business rows decided by the gateway', () => {
  it('400 invalid_idempotency_key (key of 129 characters), nothing executed', async () => {
    const t = await issueTestToken(stack, { scopes: ['orders:write'] });
    const r = await stack.api(`/v1/orders/${ORDER}/confirm`, {
      method: 'POST',
      headers: { authorization: `Bearer ${t.token}`, 'idempotency-key': 'k'.repeat(129) },
    });
    await expectBusiness(r, 400, 'invalid_idempotency_key');
  });

  it('400 ValidationProblemDetails: acknowledgment entry without id, malformed JSON', async () => {
    const t = await issueTestToken(stack, { scopes: ['orders:read'] });
    const post = (body: string) =>
      stack.api('/v1/events/acknowledgment', {
        method: 'POST',
        headers: { authorization: `Bearer ${t.token}`, 'content-type': 'application/json' },
        body,
      });
    const b = await expectProblem(await post('[{"notId": 1}]'), 400);
    expect(b.errors).toEqual(expect.any(Object));
    expect(Object.keys(b.errors).length).toBeGreaterThan(0);
    const m = await expectProblem(await post('[{"id": '), 400);
    expect(m.errors).toEqual(expect.any(Object));
  });

  it('404 ProblemDetails: unknown route, orderId not a GUID, merchantId of another store', async () => {
    await expectProblem(await stack.api('/v1/nothing'), 404);
    await expectProblem(await stack.api('/'), 404);
    const t = await issueTestToken(stack, { scopes: ['orders:read', 'merchant:read', 'catalog:read'] });
    const auth = { authorization: `Bearer ${t.token}` };
    await expectProblem(await stack.api('/v1/orders/not-a-guid', { headers: auth }), 404);
    await expectProblem(await stack.api(`/v1/merchant/${randomUUID()}`, { headers: auth }), 404);
    await expectProblem(await stack.api(`/v1/merchant/${randomUUID()}/menus`, { headers: auth }), 404);
    // found by fuzzing: broken percent-encoding and over-long path parameters are unknown routes
    await expectProblem(await stack.api('/v1/orders/%zz', { headers: auth }), 404);
    await expectProblem(await stack.api(`/v1/merchant/${'a'.repeat(300)}`, { headers: auth }), 404);
  });

  it('413 on business routes above 64 KB; 415 for an unreadable Content-Type', async () => {
    const t = await issueTestToken(stack, { scopes: ['orders:read', 'orders:write'] });
    const big = JSON.stringify([{ id: 'x'.repeat(70 * 1024) }]);
    const r = await stack.api('/v1/events/acknowledgment', {
      method: 'POST',
      headers: { authorization: `Bearer ${t.token}`, 'content-type': 'application/json' },
      body: big,
    });
    await expectProblem(r, 413);
    const a = await stack.api(`/v1/orders/${ORDER}/requestCancellation`, {
      method: 'POST',
      headers: { authorization: `Bearer ${t.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ reason: 'x'.repeat(70 * 1024) }),
    });
    expect(a.status).toBe(413);
    const u = await stack.api('/v1/events/acknowledgment', {
      method: 'POST',
      headers: { authorization: `Bearer ${t.token}`, 'content-type': 'text/plain' },
      body: 'hello',
    });
    await expectProblem(u, 415);
  });

  it('429 rate_limit_exceeded { error, message } with Retry-After: 60 (token endpoint per IP)', async () => {
    let r: Response | undefined;
    for (let i = 0; i < 61; i++) {
      r = await form('grant_type=client_credentials');
      if (r.status === 429) break;
      await r.arrayBuffer();
    }
    await expectBusiness(r!, 429, 'rate_limit_exceeded');
    expect(r!.headers.get('retry-after')).toBe('60');
  });
});

describe('500 internal_error', () => {
  it('a failing service handler gives { error, message, traceId } and leaks nothing', async () => {
    const secret = 'hunter2-client-secret-do-not-leak';
    const op = CATALOG_OPS.getMerchant;
    const sub = serveOp(
      nc,
      names(stack.prefix).rpc(op.service, op.name),
      op,
      () => {
        throw new Error(`SELECT * FROM auth.credentials WHERE secret = '${secret}'`);
      },
      {
        queue: 'catalog',
        log: createLogger('fake-catalog', 'silent'),
        keys: loadRpcKeys('catalog', stack.config),
      },
    );
    await nc.flush();
    try {
      const t = await issueTestToken(stack, { scopes: ['merchant:read'] });
      const r = await stack.api(`/v1/merchant/${t.merchantId}`, {
        headers: { authorization: `Bearer ${t.token}`, 'x-request-id': 'trace-500-test' },
      });
      expect(r.status).toBe(500);
      const text = await r.text();
      const body = JSON.parse(text);
      expect(Object.keys(body).sort()).toEqual(['error', 'message', 'traceId']);
      expect(body.error).toBe('internal_error');
      expect(body.traceId).toBe('trace-500-test');
      for (const leak of [secret, 'SELECT', 'credentials', 'at ', 'Error:', '.ts'])
        expect(text).not.toContain(leak);
    } finally {
      sub.unsubscribe();
    }
  });

  it('a service that does not answer: 503 service_unavailable, retryable, never a hang', async () => {
    const t = await issueTestToken(stack, { scopes: ['orders:read'] });
    const r = await stack.api('/v1/events:polling', { headers: { authorization: `Bearer ${t.token}` } });
    expect(r.status).toBe(503);
    const body = await r.json();
    expect(Object.keys(body).sort()).toEqual(['error', 'message', 'traceId']);
    expect(body.error).toBe('service_unavailable');
    expect(r.headers.get('retry-after')).toBeTruthy();
    expect(FEED_OPS.poll).toBeTruthy();
  });
});
