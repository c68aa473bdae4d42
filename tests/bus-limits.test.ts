import { startStack, type TestStack } from '@od/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/** Issue 9 item 2, request side: a body the gateway accepts but the bus cannot carry is a 413, never a crash. */
describe('a request too large for the bus', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startStack({ services: ['catalog'] });
  }, 60_000);
  afterAll(async () => {
    await stack?.stop();
  });

  it('admin body under the 1 MiB listener limit but over the bus limit once wrapped: 413, gateway keeps serving', async () => {
    const create = await stack.admin('POST', '/admin/v1/merchants', { name: 'Loja grande' });
    const { id } = (await create.json()) as { id: string };
    // 1 MiB minus a few bytes of JSON: accepted by the listener, too large with the RPC envelope
    const body = { name: 'x'.repeat(1024 * 1024 - 24) };
    const r = await stack.admin('PUT', `/admin/v1/merchants/${id}/menu`, body);
    expect(r.status).toBe(413);
    expect(await r.json()).toMatchObject({ error: 'payload_too_large' });
    const again = await stack.admin('GET', `/admin/v1/merchants/${id}`);
    expect(again.status).toBe(200);
  });
});
