import { randomBytes } from 'node:crypto';
import { createMerchant, createOrder, issueTestToken, type ReceivedSpan } from '@od/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTracedStack } from './lib/traced-stack.ts';

/**
 * Head sampling at the edge (issue 21, item 5): the public listener draws each request once
 * (parent-based ratio 0.5 here). A sampled GET order is one whole trace (gateway server span, RPC
 * client and server, the orders SQL); an unsampled one leaves no span anywhere: no service starts a
 * root of its own for it.
 */
describe('edge sampling through the stack', () => {
  let traced: Awaited<ReturnType<typeof startTracedStack>>;
  beforeAll(async () => {
    traced = await startTracedStack(
      { OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: '0.5' },
      { services: ['catalog', 'orders'], env: { RATE_LIMIT_ENABLED: 'false' } },
    );
  });
  afterAll(() => traced?.stop());

  it('an unsampled request leaves no span, a sampled one its whole trace', async () => {
    const { stack, receiver, settle } = traced;
    const { merchantId } = await createMerchant(stack);
    const order = await createOrder(stack, merchantId);
    const { token } = await issueTestToken(stack, { merchantId });
    await settle();
    const before = new Set(receiver.spans);
    // the caller's own sampled flag decides nothing: every request says 01
    const callers = Array.from({ length: 24 }, () => randomBytes(16).toString('hex'));
    for (const caller of callers) {
      const res = await stack.api(`/v1/orders/${order.id}`, {
        headers: {
          authorization: `Bearer ${token}`,
          traceparent: `00-${caller}-${randomBytes(8).toString('hex')}-01`,
        },
      });
      expect(res.status).toBe(200);
    }
    await settle();
    const spans = receiver.spans.filter((s) => !before.has(s));
    const entryOf = (caller: string) =>
      spans.find((s) => s.scope === 'gateway' && s.links?.some((l) => l.traceId === caller));
    const sampled = callers.filter(entryOf);
    // 0.5 each: all 24 on one side has a probability of 1 in 8 million
    expect(sampled.length).toBeGreaterThan(0);
    expect(sampled.length).toBeLessThan(callers.length);

    // every span is in the trace of a sampled request: the unsampled ones made none
    const traces = new Set(sampled.map((c) => entryOf(c)?.traceId));
    expect(spans.filter((s) => !traces.has(s.traceId))).toEqual([]);
    expect(spans.some((s) => callers.includes(s.traceId))).toBe(false);

    for (const caller of sampled) {
      const entry = entryOf(caller) as ReceivedSpan;
      const trace = spans.filter((s) => s.traceId === entry.traceId);
      const names = trace.map((s) => `${s.scope}:${s.name}`);
      expect(entry.name).toBe('GET /v1/orders/:orderId');
      expect(entry.parentSpanId || undefined).toBeUndefined();
      expect(names).toContain('rpc-client:orders.get');
      expect(names).toContain('orders:orders.get');
      expect(names.some((n) => /^orders:(SELECT|WITH)$/.test(n))).toBe(true);
      const ids = new Set(trace.map((s) => s.spanId));
      expect(trace.filter((s) => s.parentSpanId && !ids.has(s.parentSpanId))).toEqual([]);
    }
  });
});
