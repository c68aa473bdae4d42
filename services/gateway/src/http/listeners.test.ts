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

  it('serves the OpenAPI documents and the docs page (built on their first request, lazy-docs.ts)', async () => {
    const doc = await stack.api('/docs/json', { headers: { 'x-request-id': 'docs-1' } });
    expect(doc.status).toBe(200);
    expect(doc.headers.get('x-request-id')).toBe('docs-1');
    expect(doc.headers.get('content-type')).toMatch(/^application\/json/);
    const pub = await doc.json();
    expect(pub.openapi).toBe('3.1.0');
    expect(Object.keys(pub.paths)).toContain('/v1/events:polling');
    expect(Object.keys(pub.paths).filter((p) => p.startsWith('/docs'))).toEqual([]);
    const page = await stack.api('/docs/');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    const asset = /src="\.\/(static\/[^"]+\.js)"/.exec(await page.text())?.[1];
    expect((await stack.api(`/docs/${asset}`)).status).toBe(200);
    expect((await stack.api('/docs/nope')).status).toBe(404);
    expect((await stack.api('/docs/json', { method: 'POST' })).status).toBe(404);
    const admin = await stack.admin('GET', '/admin/v1/openapi.json');
    expect(admin.status).toBe(200);
    expect(Object.keys((await admin.json()).paths)).toContain('/admin/v1/health');
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
