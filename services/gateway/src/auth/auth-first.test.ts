import { ORDER_ACTIONS } from '@od/contracts';
import { issueTestToken, startStack, type TestStack } from '@od/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * SPEC Authentication 7 on every bearer route: without a valid token the answer is 401 with
 * `WWW-Authenticate` and an empty body whatever the path, query or body carry (non-GUID ids, bad
 * polling `limit`, unreadable or invalid bodies, oversized bodies, wrong media types); and requests
 * that fail validation still count against the per-credential limiter.
 */
let stack: TestStack;

beforeAll(async () => {
  stack = await startStack({ services: [] });
});
afterAll(async () => stack?.stop());

const GUID = '6f1c2b8e-2d4a-4c3e-9a51-0e8f1d2c3b4a';
const bad = [
  { method: 'GET', path: '/v1/orders/not-a-guid' },
  { method: 'GET', path: `/v1/orders/${'x'.repeat(300)}` },
  { method: 'GET', path: '/v1/merchant/%00' },
  { method: 'GET', path: '/v1/merchant/abc/menus' },
  { method: 'GET', path: '/v1/events:polling?limit=abc' },
  { method: 'GET', path: '/v1/events/:polling?limit=0' },
  { method: 'POST', path: '/v1/events/acknowledgment', type: 'application/json', body: '{' },
  { method: 'POST', path: '/v1/events/acknowledgment', type: 'application/json', body: '[{"id":1}]' },
  { method: 'POST', path: '/v1/events/acknowledgment', type: 'text/plain', body: 'x' },
  {
    method: 'POST',
    path: '/v1/events/acknowledgment',
    type: 'application/json',
    body: `[${'{"id":"x"},'.repeat(20_000)}{}]`,
  },
  ...ORDER_ACTIONS.map((a) => ({
    method: 'POST',
    path: `/v1/orders/zzz/${a}`,
    type: 'application/json',
    body: '{',
  })),
  {
    method: 'POST',
    path: `/v1/orders/${GUID}/requestCancellation`,
    type: 'application/json',
    body: JSON.stringify({ reason: 'a\u0000b' }),
  },
];

describe('authentication before validation', () => {
  for (const auth of [undefined, 'Bearer', 'Bearer not.a.jwt', 'Basic Zm9vOmJhcg==']) {
    it(`${auth ?? 'no Authorization'}: 401 + WWW-Authenticate on every malformed request`, async () => {
      for (const r of bad) {
        const headers: Record<string, string> = {};
        if (auth) headers.authorization = auth;
        if (r.type) headers['content-type'] = r.type;
        const res = await stack.api(r.path, { method: r.method, headers, body: r.body });
        const where = `${r.method} ${r.path.slice(0, 60)} ${String(r.body).slice(0, 30)}`;
        expect(res.status, where).toBe(401);
        expect(res.headers.get('www-authenticate'), where).toMatch(/^Bearer/);
        expect(await res.text(), where).toBe('');
      }
    });
  }

  it('with a valid token the same requests get their validation answers (404 / 400)', async () => {
    const { token } = await issueTestToken(stack);
    const auth = { authorization: `Bearer ${token}` };
    expect((await stack.api('/v1/orders/not-a-guid', { headers: auth })).status).toBe(404);
    expect((await stack.api('/v1/events:polling?limit=abc', { headers: auth })).status).toBe(400);
    const ack = await stack.api('/v1/events/acknowledgment', {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: '[{"id":1}]',
    });
    expect(ack.status).toBe(400);
    expect((await ack.json()).errors).toBeDefined();
  });

  it('requests failing validation count against the per-credential limiter (600 per minute)', async () => {
    const { token } = await issueTestToken(stack);
    const headers = { authorization: `Bearer ${token}` };
    const statuses: number[] = [];
    for (let i = 0; i < 600; i += 20) {
      const batch = await Promise.all(
        Array.from({ length: 20 }, () => stack.api('/v1/events:polling?limit=0', { headers })),
      );
      statuses.push(...batch.map((r) => r.status));
    }
    expect(statuses.every((s) => s === 400)).toBe(true);
    const over = await stack.api('/v1/orders/not-a-guid', { headers });
    expect(over.status).toBe(429);
    expect(over.headers.get('retry-after')).toBe('60');
  });
});
