import { opsListeners } from '@od/runtime';
import { startStack, type TestStack } from '@od/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signInRequest, storeUser } from './test-helpers.ts';

/** The panel's ops listener (OPS_PORT, 9406 under `pnpm start`) like every service's. */
describe('panel ops listener', () => {
  let stack: TestStack;
  let owner: Awaited<ReturnType<typeof storeUser>>;
  let url: string;
  beforeAll(async () => {
    stack = await startStack({ panel: true, env: { OPS_PORT: '0', RATE_LIMIT_ENABLED: 'false' } });
    owner = await storeUser(stack, 'OWNER');
    const l = opsListeners().find((o) => o.name === 'panel');
    if (!l?.url) throw new Error('no ops listener for the panel');
    url = l.url;
  }, 60_000);
  afterAll(async () => stack?.stop());

  it('answers livez, and readyz once its order-event consumer is attached', async () => {
    expect((await fetch(`${url}/livez`)).status).toBe(200);
    const ready = await fetch(`${url}/readyz`);
    expect({ status: ready.status, body: await ready.json() }).toEqual({
      status: 200,
      body: { status: 'ready' },
    });
  });

  it('counts requests by route template: never a user, store or order in a label', async () => {
    for (let i = 0; i < 2; i++)
      expect((await owner.client.call('GET', `/panel/api/stores/${owner.merchantId}/orders`)).status).toBe(
        200,
      );
    expect((await signInRequest(stack, owner.email, 'not-the-password')).status).toBe(401);
    const text = await (await fetch(`${url}/metrics`)).text();
    const listed = text.match(
      /^od_http_request_duration_seconds_count\{listener="panel",route="\/panel\/api\/stores\/:merchantId\/orders",method="GET",status="200"\} (\d+)/m,
    );
    expect(Number(listed?.[1])).toBeGreaterThanOrEqual(2);
    expect(text).toContain('listener="panel",route="/panel/api/session",method="POST",status="401"');
    expect(text).toMatch(/^od_consumer_pending\{consumer="panel"\} \d+/m);
    expect(text).toMatch(/^od_pg_pool_connections\{pool="panel",state="total"\} \d+/m);
    for (const id of [owner.merchantId, owner.userId, owner.email]) expect(text).not.toContain(id);
  });
});
