import { openCredentialsKv } from '@od/bus';
import { names } from '@od/contracts';
import {
  bearerOf,
  eventually,
  issueTestToken,
  type Publisher,
  poll,
  publisher,
  startStack,
  type TestStack,
} from '@od/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * The empty-poll fast path (services/gateway/src/routes/empty-polls.ts): a credential whose feed is
 * known empty is answered by the gateway alone, and a new event still reaches every gateway's next
 * poll (the feed announces it; the cache's TTL is 60 s, far beyond these waits).
 */
describe('empty polls answered by the gateway', () => {
  let stack: TestStack;
  let pub: Publisher;
  const viaGateway = async (token: string, gw: number) => {
    const res = await stack.api('/v1/events:polling', bearerOf(token), gw);
    return { status: res.status, body: await res.text() };
  };
  beforeAll(async () => {
    stack = await startStack({ services: ['feed'], gateways: 2 });
    pub = await publisher(stack);
  });
  afterAll(async () => {
    await pub?.close();
    await stack?.stop();
  });

  it('answers a known-empty feed without the feed service, and serves the next event at once on every gateway', async () => {
    const { token, merchantId } = await issueTestToken(stack, { scopes: ['orders:read'] });
    for (const gw of [0, 1]) expect(await viaGateway(token, gw)).toEqual({ status: 200, body: '[]' });
    // the feed is gone: only an answer the gateway already knows can be 200
    await stack.services.feed!.stop();
    for (const gw of [0, 1]) expect(await viaGateway(token, gw)).toEqual({ status: 200, body: '[]' });
    const fresh = await issueTestToken(stack, { scopes: ['orders:read'], merchantId });
    expect((await viaGateway(fresh.token, 0)).status).toBe(503);

    stack.services.feed = await stack.startService('feed');
    await eventually(
      () => viaGateway(token, 0),
      (r) => r.status === 200,
    );
    for (const gw of [0, 1]) expect(await viaGateway(token, gw)).toEqual({ status: 200, body: '[]' });
    const e = await pub.publish(merchantId);
    for (const gw of [0, 1]) {
      const got = await eventually(
        async () => JSON.parse((await viaGateway(token, gw)).body),
        (v) => v.length === 1,
        10_000,
      );
      expect(got).toEqual([e]);
    }
    // at-least-once: served again until acknowledged
    expect(await poll(stack, token)).toEqual([e]);
  });

  it('a pause refuses the next poll at once, even for a feed known empty', async () => {
    const { token, record } = await issueTestToken(stack, { scopes: ['orders:read'] });
    expect(await viaGateway(token, 0)).toEqual({ status: 200, body: '[]' });
    expect(await viaGateway(token, 0)).toEqual({ status: 200, body: '[]' });
    const kv = await openCredentialsKv(pub.nc, names(stack.config.NATS_PREFIX));
    const rev = await kv.put(
      record.clientId,
      JSON.stringify({ ...record, status: 'PAUSED', updatedAt: new Date().toISOString() }),
    );
    await Promise.all(stack.gateways.map((g) => g.ctx.credentials.waitForRevision(rev)));
    expect((await viaGateway(token, 0)).status).toBe(401);
  });
});
