import { randomBytes } from 'node:crypto';
import { createMerchant, issueTestToken } from '@od/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTracedStack } from './lib/traced-stack.ts';

/**
 * Tracing cannot be forced from outside (issue 22, item 5): with the operator's sampling at 0
 * (parent-based ratio 0, which would follow a sampled remote parent), a public-API or panel request
 * carrying `traceparent: 00-...-01` exports no span at all; the Admin API (inside the platform)
 * still continues a sampled caller's trace.
 */
describe('sampling is the operator decision at public listeners', () => {
  let traced: Awaited<ReturnType<typeof startTracedStack>>;
  beforeAll(async () => {
    traced = await startTracedStack(
      { OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: '0' },
      { services: ['catalog'], panel: true, env: { RATE_LIMIT_ENABLED: 'false' } },
    );
  });
  afterAll(() => traced?.stop());

  const sampled = () => {
    const traceId = randomBytes(16).toString('hex');
    return { traceId, traceparent: `00-${traceId}-${randomBytes(8).toString('hex')}-01` };
  };

  it('a sampled traceparent at the public API and at the panel exports nothing', async () => {
    const { stack, receiver, settle } = traced;
    const { merchantId } = await createMerchant(stack);
    const { token } = await issueTestToken(stack, { merchantId });
    const api = sampled();
    const res = await stack.api(`/v1/merchant/${merchantId}`, {
      headers: { authorization: `Bearer ${token}`, traceparent: api.traceparent },
    });
    expect(res.status).toBe(200);
    const panel = sampled();
    const page = await fetch(`${stack.panel?.url}/panel/api/me`, {
      headers: { traceparent: panel.traceparent },
    });
    expect(page.status).toBe(401);
    await settle();
    expect(receiver.spans.map((s) => `${s.scope}:${s.name}`)).toEqual([]);
  });

  it('the Admin API, inside the platform, still continues a sampled caller', async () => {
    const { stack, receiver, settle } = traced;
    const { merchantId } = await createMerchant(stack);
    const admin = sampled();
    const res = await fetch(`${stack.gateway.adminUrl}/admin/v1/merchants/${merchantId}`, {
      headers: { authorization: `Bearer ${stack.config.ADMIN_TOKEN}`, traceparent: admin.traceparent },
    });
    expect(res.status).toBe(200);
    await settle();
    expect(receiver.spans.some((s) => s.traceId === admin.traceId)).toBe(true);
  });
});
