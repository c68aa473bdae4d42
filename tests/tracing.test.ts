import { randomBytes } from 'node:crypto';
import { flushTracing } from '@od/telemetry';
import { createMerchant, createOrder, issueTestToken, type ReceivedSpan } from '@od/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTracedStack } from './lib/traced-stack.ts';

/**
 * One trace across every hop: a confirm sent with a W3C traceparent makes spans of the gateway, of
 * orders (RPC server, SQL, outbox publish) and of the event consumers arrive at an OTLP/HTTP
 * receiver (http/json) under one trace id, the gateway's own, linked to the caller's. The stack runs in this process: the tracer's scope
 * names the service.
 */
describe('tracing over OTLP/HTTP', () => {
  let traced: Awaited<ReturnType<typeof startTracedStack>>;
  beforeAll(async () => {
    traced = await startTracedStack({}, { env: { RATE_LIMIT_ENABLED: 'false' } });
  });
  afterAll(() => traced?.stop());

  it('joins gateway, orders and the consumers under the caller trace id', async () => {
    const { stack, receiver } = traced;
    const { merchantId } = await createMerchant(stack);
    const order = await createOrder(stack, merchantId);
    const { token } = await issueTestToken(stack, { merchantId });
    const traceId = randomBytes(16).toString('hex');
    const res = await stack.api(`/v1/orders/${order.id}/confirm`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        traceparent: `00-${traceId}-${randomBytes(8).toString('hex')}-01`,
        'content-type': 'application/json',
      },
      body: '{}',
    });
    expect(res.status).toBeLessThan(300);
    // the public listener starts its own trace, linked to the caller's (the caller cannot force sampling)
    let entry: ReceivedSpan | undefined;
    for (let i = 0; i < 100 && !entry; i++) {
      await flushTracing();
      entry = receiver.spans.find((s) => s.links?.some((l) => l.traceId === traceId));
      if (!entry) await new Promise((r) => setTimeout(r, 200));
    }
    expect(entry?.name).toBe('POST /v1/orders/:orderId/confirm');
    expect(entry?.traceId).not.toBe(traceId);
    expect(receiver.spans.filter((s) => s.traceId === traceId)).toEqual([]);
    const ours = entry?.traceId;
    const mine = (): ReceivedSpan[] => receiver.spans.filter((s) => s.traceId === ours);
    const scopes = () => new Set(mine().map((s) => s.scope));
    const deadline = Date.now() + 20_000;
    while (Date.now() < deadline && !['gateway', 'orders', 'feed', 'webhook'].every((s) => scopes().has(s))) {
      await flushTracing();
      await new Promise((r) => setTimeout(r, 200));
    }
    const names = mine().map((s) => `${s.scope}:${s.name}`);
    expect(names).toContain('gateway:POST /v1/orders/:orderId/confirm');
    expect(names).toContain('orders:orders.action');
    expect(names.some((n) => n === 'orders:publish order-event')).toBe(true);
    expect(names.some((n) => /^orders:(UPDATE|WITH|SELECT|INSERT)$/.test(n))).toBe(true);
    expect(names).toContain('feed:consume feed');
    expect(names).toContain('webhook:consume webhook');
    // the gateway's span is the root; every other span has its parent in the trace
    const ids = new Set(mine().map((s) => s.spanId));
    expect(entry?.parentSpanId || undefined).toBeUndefined();
    const orphans = mine().filter((s) => s.parentSpanId && !ids.has(s.parentSpanId));
    expect(orphans.map((s) => s.name)).toEqual([]);
    expect(receiver.spans.every((s) => s.service === 'od-test')).toBe(true);

    // a caller's unsampled flag decides nothing either: the operator's sampler (always on here)
    // records the request under the gateway's own trace, linked to the caller's, never under its id
    const unsampled = randomBytes(16).toString('hex');
    const get = await stack.api(`/v1/orders/${order.id}`, {
      headers: {
        authorization: `Bearer ${token}`,
        traceparent: `00-${unsampled}-${randomBytes(8).toString('hex')}-00`,
      },
    });
    expect(get.status).toBe(200);
    await flushTracing();
    await new Promise((r) => setTimeout(r, 500));
    await flushTracing();
    expect(receiver.spans.filter((s) => s.traceId === unsampled)).toEqual([]);
    expect(receiver.spans.some((s) => s.links?.some((l) => l.traceId === unsampled))).toBe(true);
  });
});
