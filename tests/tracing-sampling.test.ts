import { randomBytes } from 'node:crypto';
import { flushTracing, initTracing, shutdownTracing } from '@od/telemetry';
import { createMerchant, issueTestToken, startOtlpReceiver, startStack, type TestStack } from '@od/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * Tracing cannot be forced from outside (issue 22, item 5): with the operator's sampling at 0
 * (parent-based ratio 0, which would follow a sampled remote parent), a public-API or panel request
 * carrying `traceparent: 00-...-01` exports no span at all; the Admin API (inside the platform)
 * still continues a sampled caller's trace.
 */
describe('sampling is the operator decision at public listeners', () => {
  let stack: TestStack;
  let receiver: Awaited<ReturnType<typeof startOtlpReceiver>>;
  beforeAll(async () => {
    receiver = await startOtlpReceiver();
    Object.assign(process.env, {
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_BSP_SCHEDULE_DELAY: '100',
      OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
      OTEL_TRACES_SAMPLER_ARG: '0',
    });
    expect(await initTracing('od-test', process.env)).toBe(true);
    stack = await startStack({ services: ['catalog'], panel: true, env: { RATE_LIMIT_ENABLED: 'false' } });
  });
  afterAll(async () => {
    await stack?.stop();
    await shutdownTracing();
    await receiver?.close();
  });

  const sampled = () => {
    const traceId = randomBytes(16).toString('hex');
    return { traceId, traceparent: `00-${traceId}-${randomBytes(8).toString('hex')}-01` };
  };
  const settle = async () => {
    for (let i = 0; i < 3; i++) {
      await flushTracing();
      await new Promise((r) => setTimeout(r, 300));
    }
  };

  it('a sampled traceparent at the public API and at the panel exports nothing', async () => {
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
