import { startStack, type TestStack } from '@od/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run } from '../odctl.ts';

async function odctl(stack: TestStack, ...args: string[]) {
  let stdout = '';
  let stderr = '';
  const code = await run(['--url', stack.gateway.adminUrl, '--token', stack.config.ADMIN_TOKEN, ...args], {
    out: (t) => void (stdout += t),
    err: (t) => void (stderr += t),
    env: {},
  });
  return { code, out: stdout ? JSON.parse(stdout) : undefined, err: stderr ? JSON.parse(stderr) : undefined };
}

describe('odctl user', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startStack({ panel: true, services: ['catalog'] });
  }, 60_000);
  afterAll(async () => stack?.stop());

  it('invite prints the setup link; list shows the user; remove takes the store away', async () => {
    const store = await odctl(stack, 'store', 'create', '--name', 'Loja usuários');
    const merchantId = store.out.id;
    const inv = await odctl(stack, 'user', 'invite', merchantId, 'dono@loja.test', '--role', 'owner');
    expect(inv.code).toBe(0);
    expect(inv.out).toMatchObject({ email: 'dono@loja.test', role: 'OWNER' });
    expect(inv.out.setupUrl).toContain(inv.out.setupToken);
    const list = await odctl(stack, 'user', 'list', merchantId);
    expect(list.out).toEqual([expect.objectContaining({ userId: inv.out.userId, active: false })]);
    expect((await odctl(stack, 'user', 'remove', merchantId, inv.out.userId)).code).toBe(0);
    expect((await odctl(stack, 'user', 'list', merchantId)).out).toEqual([]);
    const again = await odctl(stack, 'user', 'remove', merchantId, inv.out.userId);
    expect(again.code).toBe(1);
    expect(again.err.error).toBe('not_found');
    const bad = await odctl(stack, 'user', 'invite', merchantId, 'x@loja.test', '--role', 'chef');
    expect(bad.err.error).toBe('usage');
  });
});
