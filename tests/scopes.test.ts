import { ORDER_ACTIONS, SCOPES, type Scope } from '@od/contracts';
import { requestToken, startStack, type TestStack } from '@od/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * SPEC's scope table, end to end: a credential made through the Admin API with exactly one scope,
 * its token from the real token endpoint, and every public route. A route of the token's scope
 * does its work; every other route answers 403 insufficient_scope.
 */
describe('scope table', () => {
  let stack: TestStack;
  let merchantId: string;
  let orderId: string;
  const tokens = new Map<Scope, string>();

  beforeAll(async () => {
    stack = await startStack({ env: { RATE_LIMIT_ENABLED: 'false' } });
    const store = await stack.admin('POST', '/admin/v1/merchants', { name: 'Loja escopos', test: true });
    merchantId = (await store.json()).id;
    const order = await stack.admin('POST', `/admin/v1/merchants/${merchantId}/orders`, { type: 'DELIVERY' });
    expect(order.status).toBe(201);
    orderId = (await order.json()).id;
    for (const scope of SCOPES) {
      const cred = await stack.admin('POST', `/admin/v1/merchants/${merchantId}/credentials`, {
        name: scope,
        scopes: [scope],
        deliveryMode: 'POLLING',
      });
      const { clientId, clientSecret } = await cred.json();
      const res = await requestToken(stack, clientId, clientSecret);
      const body = await res.json();
      expect(body.scope).toBe(scope);
      tokens.set(scope, body.access_token);
    }
  });
  afterAll(async () => stack?.stop());

  const routes = (): { scope: Scope; method: string; path: string; body?: unknown }[] => [
    { scope: 'orders:read', method: 'GET', path: '/v1/events:polling' },
    { scope: 'orders:read', method: 'GET', path: '/v1/events/:polling' },
    { scope: 'orders:read', method: 'POST', path: '/v1/events/acknowledgment', body: [] },
    { scope: 'orders:read', method: 'GET', path: `/v1/orders/${orderId}` },
    { scope: 'orders:read', method: 'GET', path: '/v1/orders' },
    { scope: 'orders:read', method: 'GET', path: '/v1/events' },
    ...ORDER_ACTIONS.map((a) => ({
      scope: 'orders:write' as Scope,
      method: 'POST',
      path: `/v1/orders/${orderId}/${a}`,
    })),
    { scope: 'merchant:read', method: 'GET', path: `/v1/merchant/${merchantId}` },
    { scope: 'catalog:read', method: 'GET', path: `/v1/merchant/${merchantId}/menus` },
  ];

  it('each scope opens exactly its routes', async () => {
    const seen: string[] = [];
    for (const scope of SCOPES) {
      for (const r of routes()) {
        const res = await stack.api(r.path, {
          method: r.method,
          headers: {
            authorization: `Bearer ${tokens.get(scope)}`,
            ...(r.body === undefined ? {} : { 'content-type': 'application/json' }),
          },
          body: r.body === undefined ? undefined : JSON.stringify(r.body),
        });
        const text = await res.text();
        if (r.scope === scope) {
          // allowed: the route does its work (an action may still meet the order in a state it refuses)
          expect([200, 202, 422], `${scope} ${r.method} ${r.path}: ${text}`).toContain(res.status);
          seen.push(`${r.method} ${r.path}`);
        } else {
          expect(res.status, `${scope} ${r.method} ${r.path}`).toBe(403);
          expect(JSON.parse(text)).toEqual({ error: 'insufficient_scope', message: expect.any(String) });
        }
      }
    }
    expect(seen).toHaveLength(routes().length);
  });
});
