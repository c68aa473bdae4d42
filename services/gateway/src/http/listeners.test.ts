import { request } from 'node:http';
import { startStack, type TestStack } from '@od/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

describe('gateway listeners', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(async () => stack?.stop());

  it('answers an unknown public route with 404 ProblemDetails carrying the trace id', async () => {
    const res = await stack.api('/v1/nope', { headers: { 'x-request-id': 'trace-abc' } });
    expect(res.status).toBe(404);
    expect(res.headers.get('x-request-id')).toBe('trace-abc');
    expect(await res.json()).toEqual({
      type: expect.any(String),
      title: 'Not Found',
      status: 404,
      traceId: 'trace-abc',
    });
  });

  it('reports every service healthy on the admin listener', async () => {
    const res = await stack.admin('GET', '/admin/v1/health');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      status: 'ok',
      services: { auth: 'ok', catalog: 'ok', orders: 'ok', feed: 'ok', webhook: 'ok' },
    });
  });

  it('refuses the admin listener without the admin token', async () => {
    const res = await fetch(`${stack.gateway.adminUrl}/admin/v1/health`);
    expect(res.status).toBe(401);
    expect((await res.json()).error).toBe('unauthorized');
  });

  it('serves the OpenAPI document and the docs page', async () => {
    const doc = await stack.api('/docs/json');
    expect(doc.status).toBe(200);
    expect((await doc.json()).openapi).toBe('3.1.0');
    const page = await stack.api('/docs/');
    expect(page.status).toBe(200);
  });

  it('a request node cannot parse answers 400; to a HEAD request without a body', async () => {
    const url = new URL(stack.gateway.publicUrl);
    for (const method of ['HEAD', 'GET']) {
      const status = await new Promise<number | string>((resolve) => {
        const req = request({ host: url.hostname, port: url.port, method, path: '/v1/merchant/ç' }, (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        });
        req.on('error', (e) => resolve(e.message));
        req.end();
      });
      expect(status, method).toBe(400);
    }
  });
});
