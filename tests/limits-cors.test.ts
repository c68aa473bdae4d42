import { startStack, type TestStack } from '@od/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/** CORS: only the developer portal origin (config.CORS_ORIGIN), preflight included. */
let stack: TestStack;
const PORTAL = 'https://portal.test.local';
const PATH = '/v1/orders/6f1c0f8e-0000-4000-8000-000000000001/confirm';

beforeAll(async () => {
  stack = await startStack({ services: [] });
});
afterAll(async () => {
  await stack?.stop();
});

describe('CORS', () => {
  it('preflight from the portal: 204 with the allow headers', async () => {
    const r = await stack.api(PATH, {
      method: 'OPTIONS',
      headers: {
        origin: PORTAL,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization, content-type, idempotency-key',
      },
    });
    expect(r.status).toBe(204);
    expect(r.headers.get('access-control-allow-origin')).toBe(PORTAL);
    const allowHeaders = (r.headers.get('access-control-allow-headers') ?? '').toLowerCase();
    for (const h of ['authorization', 'content-type', 'idempotency-key']) expect(allowHeaders).toContain(h);
    expect(r.headers.get('access-control-allow-methods')).toContain('POST');
    expect(r.headers.get('access-control-allow-credentials')).toBeNull();
    expect(await r.text()).toBe('');
  });

  it('preflight of the token endpoint from the portal', async () => {
    const r = await stack.api('/oauth/token', {
      method: 'OPTIONS',
      headers: { origin: PORTAL, 'access-control-request-method': 'POST' },
    });
    expect(r.status).toBe(204);
    expect(r.headers.get('access-control-allow-origin')).toBe(PORTAL);
  });

  it('simple request from the portal: allow-origin and exposed headers', async () => {
    const r = await stack.api('/v1/nothing-here', { headers: { origin: PORTAL } });
    expect(r.status).toBe(404);
    expect(r.headers.get('access-control-allow-origin')).toBe(PORTAL);
    const exposed = (r.headers.get('access-control-expose-headers') ?? '').toLowerCase();
    for (const h of ['x-request-id', 'ratelimit', 'ratelimit-policy', 'retry-after'])
      expect(exposed.split(/,\s*/)).toContain(h);
    expect(r.headers.get('vary')?.toLowerCase()).toContain('origin');
  });

  it.each([
    'https://evil.example.com',
    'https://portal.test.local.evil.com',
    'http://portal.test.local',
    'null',
  ])('origin %s: no CORS header at all, preflight not granted', async (origin) => {
    const pre = await stack.api(PATH, {
      method: 'OPTIONS',
      headers: {
        origin,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization',
      },
    });
    expect(pre.status).toBeGreaterThanOrEqual(400);
    expect(pre.status).toBeLessThan(500);
    for (const [k] of pre.headers) expect(k.startsWith('access-control-')).toBe(false);
    const get = await stack.api('/v1/nothing-here', { headers: { origin } });
    for (const [k] of get.headers) expect(k.startsWith('access-control-')).toBe(false);
  });

  it('OPTIONS without Origin (not a preflight): 404 ProblemDetails, no CORS headers', async () => {
    const r = await stack.api(PATH, { method: 'OPTIONS' });
    expect(r.status).toBe(404);
    const body = await r.json();
    expect(body).toMatchObject({ status: 404, title: 'Not Found' });
    for (const [k] of r.headers) expect(k.startsWith('access-control-')).toBe(false);
  });
});
