import { opsListeners } from '@od/runtime';
import { issueTestToken, requestToken, startStack, type TestStack } from '@od/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/** Every service of a stack has its ops listener; the gateway's metrics show requests by route. */
describe('ops listeners of a whole stack', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startStack({ env: { OPS_PORT: '0', RATE_LIMIT_ENABLED: 'false' } });
  });
  afterAll(async () => stack?.stop());

  const listener = (name: string) => {
    const l = opsListeners().find((o) => o.name === name);
    if (!l?.url) throw new Error(`no ops listener for ${name}`);
    return l.url;
  };
  const metrics = async (name: string) => (await fetch(`${listener(name)}/metrics`)).text();

  it('every service answers livez, readyz and metrics', async () => {
    const names = opsListeners().map((o) => o.name);
    expect(names.sort()).toEqual(['auth', 'catalog', 'feed', 'gateway', 'orders', 'webhook']);
    for (const name of names) {
      expect((await fetch(`${listener(name)}/livez`)).status).toBe(200);
      const ready = await fetch(`${listener(name)}/readyz`);
      expect({ name, status: ready.status, body: await ready.json() }).toEqual({
        name,
        status: 200,
        body: { status: 'ready' },
      });
    }
    const feed = await metrics('feed');
    expect(feed).toMatch(/^od_consumer_pending\{consumer="feed"\} \d+/m);
    expect(feed).toMatch(/^od_consumer_pending\{consumer="webhook"\} \d+/m);
    expect(feed).toMatch(/^od_feed_pending_events \d+/m);
    expect(feed).toMatch(/^od_feed_held_events \d+/m);
    expect(feed).toMatch(/^od_outbox_backlog \d+/m);
    expect(feed).toMatch(/^od_outbox_set_aside 0/m);
    expect(feed).toMatch(/^od_pg_pool_connections\{pool="orders",state="total"\} \d+/m);
  });

  it('polling requests show in the gateway metrics by route template, never by id', async () => {
    const { token, merchantId } = await issueTestToken(stack);
    for (let i = 0; i < 3; i++) {
      const res = await stack.api('/v1/events:polling', { headers: { authorization: `Bearer ${token}` } });
      expect(res.status).toBe(200);
    }
    expect((await stack.api(`/v1/merchant/${merchantId}`)).status).toBe(401);
    const text = await metrics('gateway');
    const polled = text.match(
      /^od_http_request_duration_seconds_count\{listener="public",route="\/v1\/events::polling",method="GET",status="200"\} (\d+)/m,
    );
    expect(Number(polled?.[1])).toBeGreaterThanOrEqual(3);
    expect(text).toContain('route="/v1/merchant/:merchantId",method="GET",status="401"');
    expect(text).not.toContain(merchantId);
    expect(text).toMatch(
      /^od_rpc_client_duration_seconds_count\{op="feed.events.poll",outcome="ok"\} [1-9]/m,
    );
    expect(text).toMatch(
      /^od_rpc_server_duration_seconds_count\{op="feed.events.poll",outcome="ok"\} [1-9]/m,
    );
  });

  it('counts refused tokens by OAuth error code', async () => {
    expect((await requestToken(stack, 'odc_unknown', 'wrong-secret')).status).toBe(401);
    const text = await metrics('gateway');
    expect(text).toMatch(/^od_tokens_total\{outcome="refused",reason="invalid_client"\} [1-9]/m);
  });

  it('a stopping service reports not ready', async () => {
    const extra = await stack.startService('catalog');
    const mine = opsListeners().filter((o) => o.name === 'catalog');
    expect(mine).toHaveLength(2);
    const url = mine[1].url;
    expect((await fetch(`${url}/readyz`)).status).toBe(200);
    mine[1].drain();
    expect((await fetch(`${url}/readyz`)).status).toBe(503);
    await extra.stop();
    expect(opsListeners().filter((o) => o.name === 'catalog')).toHaveLength(1);
  });
});
