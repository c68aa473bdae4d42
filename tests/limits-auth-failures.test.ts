import { randomBytes } from 'node:crypto';
import { requestToken, startStack, type TestStack } from '@od/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * SPEC Limits: 10 authentication failures per credential per minute at the token endpoint; the
 * 11th wrong secret gets 429 { error, error_description } with Retry-After: 60 while the correct
 * secret is still accepted. Two gateways share the count.
 */
let stack: TestStack;

beforeAll(async () => {
  stack = await startStack({ services: ['auth', 'catalog'], gateways: 2 });
});
afterAll(async () => {
  await stack?.stop();
});

const token = (clientId: string, clientSecret: string, gw = 0) =>
  requestToken(stack, clientId, clientSecret, gw);

describe('authentication failures at the token endpoint', () => {
  it('11th wrong secret in a minute: 429 RFC 6749 body; the correct secret still works', async () => {
    const m = await stack.admin('POST', '/admin/v1/merchants', { name: 'Loja Limites' });
    expect(m.status).toBe(201);
    const merchant = await m.json();
    const c = await stack.admin('POST', `/admin/v1/merchants/${merchant.id}/credentials`, {
      name: 'pdv',
      scopes: ['orders:read'],
      deliveryMode: 'POLLING',
    });
    expect(c.status).toBe(201);
    const { clientId, clientSecret } = await c.json();

    for (let i = 0; i < 10; i++) {
      const r = await token(clientId, `wrong-${i}`, i % 2);
      expect(r.status).toBe(401);
      expect(await r.json()).toEqual({ error: 'invalid_client' });
    }
    for (const gw of [0, 1]) {
      const r = await token(clientId, 'wrong-again', gw);
      expect(r.status).toBe(429);
      expect(r.headers.get('retry-after')).toBe('60');
      const body = await r.json();
      expect(Object.keys(body).sort()).toEqual(['error', 'error_description']);
      expect(body.error).toBe('rate_limit_exceeded');
    }
    const ok = await token(clientId, clientSecret, 1);
    expect(ok.status).toBe(200);
    expect((await ok.json()).access_token).toEqual(expect.any(String));

    // an unknown credential has a bucket of its own, and answers exactly like a wrong secret
    const unknown = `odc_${randomBytes(12).toString('hex')}`;
    const r = await token(unknown, 'whatever');
    expect(r.status).toBe(401);
    expect(await r.json()).toEqual({ error: 'invalid_client' });
  });

  it('a paused credential presenting its correct secret, or an unknown id, never reaches 429', async () => {
    const m = await stack.admin('POST', '/admin/v1/merchants', { name: 'Loja Pausada' });
    const merchant = await m.json();
    const c = await stack.admin('POST', `/admin/v1/merchants/${merchant.id}/credentials`, {
      name: 'pdv',
      scopes: ['orders:read'],
      deliveryMode: 'POLLING',
    });
    const { clientId, clientSecret } = await c.json();
    expect((await stack.admin('POST', `/admin/v1/credentials/${clientId}/pause`)).status).toBe(200);
    const unknown = `odc_${randomBytes(12).toString('hex')}`;
    for (let i = 0; i < 12; i++) {
      for (const [id, secret] of [
        [clientId, clientSecret],
        [unknown, 'whatever'],
      ]) {
        const r = await token(id, secret, i % 2);
        expect(r.status).toBe(401);
        expect(await r.json()).toEqual({ error: 'invalid_client' });
      }
    }
    // wrong secrets of the paused credential do count
    for (let i = 0; i < 10; i++) expect((await token(clientId, `wrong-${i}`)).status).toBe(401);
    expect((await token(clientId, 'wrong-again')).status).toBe(429);
  });
});
