import { Kvm } from '@nats-io/kv';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { type AuthTestKit, authTestKit } from '@od/auth/test-support';
import { names } from '@od/contracts';
import { startStack, type TestStack } from '@od/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GatewayHandle } from '../main.ts';
import { CONFIRM_TIMEOUT_MS, STALE_AFTER_MS } from './credentials-sync.ts';

/** Pause/revoke wait for every live gateway replica (registry with heartbeats); stale views answer 503. */
describe('gateway replicas: registry barrier and stale credential views', () => {
  let stack: TestStack;
  let kit: AuthTestKit;
  let nc: NatsConnection;
  let cred: { merchantId: string; clientId: string; clientSecret: string };
  let token: string;

  beforeAll(async () => {
    stack = await startStack({
      services: ['catalog', 'auth'],
      gateways: 2,
      env: { RATE_LIMIT_ENABLED: 'false' },
    });
    kit = await authTestKit(stack);
    nc = await connect({ servers: stack.config.NATS_URL });
    cred = await kit.credential(['merchant:read']);
    token = (await (await kit.token(cred.clientId, cred.clientSecret)).json()).access_token;
  });
  afterAll(async () => {
    await nc?.close();
    await kit?.close();
    await stack?.stop();
  });

  const merchant = (g: GatewayHandle) =>
    fetch(`${g.publicUrl}/v1/merchant/${cred.merchantId}`, { headers: { authorization: `Bearer ${token}` } });
  const registry = async () => new Kvm(nc).open(names(stack.prefix).gatewaysBucket);
  const liveIds = async () => {
    const ids = new Set<string>();
    for await (const k of await (await registry()).keys()) ids.add(k);
    return [...ids].sort();
  };
  const action = async (a: 'pause' | 'resume') => {
    const t = performance.now();
    const r = await stack.admin('POST', `/admin/v1/credentials/${cred.clientId}/${a}`);
    return { r, body: (await r.json()) as Record<string, unknown>, ms: performance.now() - t };
  };

  it('every replica registers; a pause is confirmed by both and applies at both at once', async () => {
    expect(await liveIds()).toEqual(stack.gateways.map((g) => g.ctx.replicas.id).sort());
    const p = await action('pause');
    expect(p.r.status).toBe(200);
    expect(p.body.status).toBe('PAUSED');
    expect(p.body.unconfirmedGateways).toBeUndefined();
    expect(p.r.headers.get('od-unconfirmed-gateways')).toBeNull();
    for (const g of stack.gateways) expect((await merchant(g)).status).toBe(401);
    expect((await action('resume')).r.status).toBe(200);
    for (const g of stack.gateways) expect((await merchant(g)).status).toBe(200);
  });

  it('a registered replica that does not answer is waited for, then reported', async () => {
    const kv = await registry();
    // a hung replica: registered, listening, never confirming
    await kv.put('gw_silent', JSON.stringify({ id: 'gw_silent' }));
    const hung = nc.subscribe(names(stack.prefix).gatewaySync('gw_silent'));
    await nc.flush();
    try {
      const p = await action('pause');
      expect(p.r.status).toBe(200); // the pause is applied...
      expect(p.body.status).toBe('PAUSED');
      expect(p.body.unconfirmedGateways).toEqual(['gw_silent']); // ...and the silent replica reported
      expect(p.r.headers.get('od-unconfirmed-gateways')).toBe('gw_silent');
      expect(p.ms).toBeGreaterThanOrEqual(CONFIRM_TIMEOUT_MS - 100); // waited for it, not first answer + 50 ms
      for (const g of stack.gateways) expect((await merchant(g)).status).toBe(401);
    } finally {
      hung.unsubscribe();
    }
    // crashed (entry not expired yet, nobody listening): reported at once
    const r = await action('resume');
    expect(r.body.unconfirmedGateways).toEqual(['gw_silent']);
    expect(r.ms).toBeLessThan(CONFIRM_TIMEOUT_MS);
    await kv.delete('gw_silent');
    expect((await action('pause')).body.unconfirmedGateways).toBeUndefined();
    await action('resume');
  });

  it('a replica that stops leaves the registry; the barrier no longer waits for it', async () => {
    const extra = (await stack.startService('gateway')) as GatewayHandle;
    expect(await liveIds()).toContain(extra.ctx.replicas.id);
    expect((await merchant(extra)).status).toBe(200);
    await extra.stop();
    expect(await liveIds()).not.toContain(extra.ctx.replicas.id);
    const p = await action('pause');
    expect(p.body.unconfirmedGateways).toBeUndefined();
    expect(p.ms).toBeLessThan(CONFIRM_TIMEOUT_MS);
    await action('resume');
  });

  it('a replica whose credential watch ended refuses bearer requests with 503; the others serve', async () => {
    const extra = (await stack.startService('gateway')) as GatewayHandle;
    expect((await merchant(extra)).status).toBe(200);
    extra.ctx.credentials.stop(); // the watch ends: this view can no longer see a pause
    await new Promise((r) => setTimeout(r, 100));
    expect(extra.ctx.replicas.staleness()).toBeGreaterThan(STALE_AFTER_MS);
    const r = await merchant(extra);
    expect(r.status).toBe(503);
    expect(r.headers.get('retry-after')).toBe('1');
    expect(await r.json()).toMatchObject({ error: 'service_unavailable', traceId: expect.any(String) });
    expect((await merchant(stack.gateways[1])).status).toBe(200);
  });
});
