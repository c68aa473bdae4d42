import { startStack, type TestStack } from '@od/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * Bounded fan-out (issue 22, item 6): every order event fans out to each live credential of its
 * store, so a store holds at most CREDENTIALS_PER_STORE_MAX credentials that are not revoked. The
 * next creation answers 409 credential_limit_reached (Admin API, same auth op as the panel).
 */
describe('credentials per store', () => {
  let stack: TestStack;
  const MAX = 3;

  beforeAll(async () => {
    stack = await startStack({
      services: ['catalog', 'auth'],
      env: { RATE_LIMIT_ENABLED: 'false', CREDENTIALS_PER_STORE_MAX: String(MAX) },
    });
  });
  afterAll(async () => stack?.stop());

  const store = async () =>
    (await (await stack.admin('POST', '/admin/v1/merchants', { name: 'Loja' })).json()).id;
  const create = (merchantId: string, name = 'c') =>
    stack.admin('POST', `/admin/v1/merchants/${merchantId}/credentials`, {
      name,
      scopes: ['orders:read'],
      deliveryMode: 'POLLING',
    });

  it('refuses the credential beyond the cap with 409 credential_limit_reached; revoking frees a place', async () => {
    const [a, b] = [await store(), await store()];
    const made: string[] = [];
    for (let i = 0; i < MAX; i++) {
      const r = await create(a, `c${i}`);
      expect(r.status).toBe(201);
      made.push((await r.json()).clientId);
    }
    const over = await create(a);
    expect(over.status).toBe(409);
    expect(await over.json()).toEqual({ error: 'credential_limit_reached', message: expect.any(String) });
    const list = await (await stack.admin('GET', `/admin/v1/merchants/${a}/credentials`)).json();
    expect(list).toHaveLength(MAX);
    // another store is not affected
    expect((await create(b)).status).toBe(201);
    // paused still counts (it keeps receiving events); revoked does not
    expect((await stack.admin('POST', `/admin/v1/credentials/${made[0]}/pause`)).status).toBe(200);
    expect((await create(a)).status).toBe(409);
    expect((await stack.admin('POST', `/admin/v1/credentials/${made[1]}/revoke`)).status).toBe(200);
    expect((await create(a)).status).toBe(201);
    expect((await create(a)).status).toBe(409);
  });

  it('concurrent creations cannot pass the cap together', async () => {
    const m = await store();
    const res = await Promise.all(Array.from({ length: 8 }, (_, i) => create(m, `p${i}`)));
    const statuses = res.map((r) => r.status).sort();
    expect(statuses).toEqual([...Array(MAX).fill(201), ...Array(8 - MAX).fill(409)]);
  });
});
