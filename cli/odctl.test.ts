import { execFile, spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { requestToken, startStack, type TestStack } from '@od/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sampleMenu } from './lib/samples.ts';
import { run } from './odctl.ts';

/** Runs odctl in-process against the test stack's admin listener; captures stdout and stderr. */
async function odctl(stack: TestStack, ...args: string[]) {
  let stdout = '';
  let stderr = '';
  const code = await run(['--url', stack.gateway.adminUrl, '--token', stack.config.ADMIN_TOKEN, ...args], {
    out: (t) => void (stdout += t),
    err: (t) => void (stderr += t),
    env: {},
  });
  const json = (s: string) => {
    try {
      return s.trim() ? JSON.parse(s) : undefined;
    } catch {
      return undefined; // not JSON (demo --shell)
    }
  };
  return { code, stdout, stderr, out: json(stdout), err: json(stderr) };
}

describe('odctl', () => {
  let stack: TestStack;
  beforeAll(async () => {
    // a known public port, so the orderURL of events points at this stack (the shell demo follows it)
    const port = await new Promise<number>((resolve) => {
      const srv = net.createServer().listen(0, '127.0.0.1', () => {
        const p = (srv.address() as net.AddressInfo).port;
        srv.close(() => resolve(p));
      });
    });
    stack = await startStack({
      panel: true,
      env: { PORT: String(port), PUBLIC_BASE_URL: `http://127.0.0.1:${port}` },
    });
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it('health prints every service as ok', async () => {
    const r = await odctl(stack, 'health');
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.out).toEqual({
      status: 'ok',
      services: { auth: 'ok', catalog: 'ok', orders: 'ok', feed: 'ok', webhook: 'ok' },
    });
  });

  it('a wrong admin token is a JSON error on stderr with exit code 1', async () => {
    let stderr = '';
    const code = await run(['--url', stack.gateway.adminUrl, '--token', 'wrong-token-0123456789', 'health'], {
      out: () => {},
      err: (t) => void (stderr += t),
      env: {},
    });
    expect(code).toBe(1);
    expect(JSON.parse(stderr)).toMatchObject({ status: 401, error: 'unauthorized' });
  });

  it('usage mistakes and an unreachable API are JSON errors with exit code 1', async () => {
    const usage = await odctl(stack, 'store', 'menu', 'set', 'x');
    expect(usage.code).toBe(1);
    expect(usage.err).toMatchObject({ error: 'usage' });
    const unknown = await odctl(stack, 'no-such-command');
    expect(unknown.code).toBe(1);
    expect(unknown.err).toMatchObject({ error: 'usage' });
    let stderr = '';
    const code = await run(['--url', 'http://127.0.0.1:1', 'health'], {
      out: () => {},
      err: (t) => void (stderr += t),
      env: {},
    });
    expect(code).toBe(1);
    expect(JSON.parse(stderr)).toMatchObject({ error: 'connection_failed' });
  });

  it('store create --test creates a test store that store get reads back', async () => {
    const created = await odctl(stack, 'store', 'create', '--test', '--name', 'Loja CLI');
    expect(created.stderr).toBe('');
    expect(created.code).toBe(0);
    expect(created.out.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(created.out.name).toBe('Loja CLI');
    const got = await odctl(stack, 'store', 'get', created.out.id);
    expect(got.code).toBe(0);
    expect(got.out).toMatchObject({ id: created.out.id, name: 'Loja CLI' });
  });

  it("store open|close|pause|resume|hours|timeout manage the store's day", async () => {
    const id = (await odctl(stack, 'store', 'create', '--name', 'Loja do dia')).out.id as string;
    const intake = async () =>
      (await stack.admin('POST', `/admin/v1/merchants/${id}/orders`, { type: 'TAKEOUT' })).status;
    expect((await odctl(stack, 'store', 'close', id)).out.status).toBe('UNAVAILABLE');
    expect(await intake()).toBe(409);
    expect((await odctl(stack, 'store', 'open', id)).out.status).toBe('AVAILABLE');
    expect(await intake()).toBe(201);

    const closed = await odctl(stack, 'store', 'close', id, '--service', 'TAKEOUT');
    expect(closed.out.serviceSwitches).toEqual([
      { serviceType: 'DELIVERY', status: 'AVAILABLE', pausedUntil: null, pauseReason: null },
      { serviceType: 'TAKEOUT', status: 'UNAVAILABLE', pausedUntil: null, pauseReason: null },
    ]);
    expect(await intake()).toBe(409);
    await odctl(stack, 'store', 'open', id, '--service', 'takeout');

    const paused = await odctl(stack, 'store', 'pause', id, '--minutes', '30', '--reason', 'Cozinha cheia');
    expect(paused.out.pauseReason).toBe('Cozinha cheia');
    expect(await intake()).toBe(409);
    expect((await odctl(stack, 'store', 'resume', id)).out.pausedUntil).toBeNull();
    expect(await intake()).toBe(201);

    const hours = {
      weekHours: [{ dayOfWeek: ['MONDAY'], timePeriods: { startTime: '18:00', endTime: '02:00' } }],
    };
    const set = await odctl(
      stack,
      'store',
      'hours',
      id,
      '--json',
      JSON.stringify(hours),
      '--zone',
      'America/Manaus',
    );
    expect(set.out.timeZone).toBe('America/Manaus');
    expect(set.out.serviceHours).toEqual({ ...hours, holidayHours: [] });
    expect((await odctl(stack, 'store', 'hours', id, '--clear')).out.serviceHours).toBeNull();
    expect((await odctl(stack, 'store', 'hours', id)).err.error).toBe('usage');

    expect((await odctl(stack, 'store', 'timeout', id, '120')).out.confirmationTimeoutSeconds).toBe(120);
    const low = await odctl(stack, 'store', 'timeout', id, '10');
    expect(low.code).toBe(1);
    expect(low.err.error).toBe('validation_error');
  });

  it('store menu set --file replaces the menu (the sample menu is a valid menu)', async () => {
    const store = await odctl(stack, 'store', 'create', '--sample', '--name', 'Loja Menu');
    expect(store.code).toBe(0);
    const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'odctl-')), 'menu.json');
    writeFileSync(file, JSON.stringify(await sampleMenu()));
    const r = await odctl(stack, 'store', 'menu', 'set', store.out.id, '--file', file);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const menu = Array.isArray(r.out) ? r.out[0] : r.out;
    expect(menu.items.map((i: { name: string }) => i.name)).toContain('Pizza Margherita');
    // an item with variations gets the mandatory size group <itemId>-variacoes
    expect(menu.optionGroups.some((g: { id: string }) => g.id.endsWith('-variacoes'))).toBe(true);
  });

  it('demo gives a store, a credential and curl lines that work against the public API', async () => {
    const r = await odctl(stack, 'demo', '--public-url', stack.gateway.publicUrl);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const d = r.out;
    expect(d.merchantId).toMatch(/^[0-9a-f-]{36}$/);
    expect(d.clientId).toMatch(/^odc_[0-9a-f]{24}$/);
    expect(typeof d.clientSecret).toBe('string');
    for (const step of ['token', 'merchant', 'menu', 'poll', 'ack']) {
      expect(d.curl[step]).toContain(stack.gateway.publicUrl);
    }
    expect(d.curl.token).toContain(d.clientId);
    expect(d.sdk).toBe(
      `export OD_BASE_URL='${stack.gateway.publicUrl}' OD_CLIENT_ID='${d.clientId}' OD_CLIENT_SECRET='${d.clientSecret}'`,
    );
    expect(d.curl.merchant).toContain(`/v1/merchant/${d.merchantId}`);

    // the printed secrets really work: token (form body, as in the curl line), merchant, menu
    const tokenRes = await requestToken(stack, d.clientId, d.clientSecret);
    expect(tokenRes.status).toBe(200);
    const { access_token: token, scope } = (await tokenRes.json()) as { access_token: string; scope: string };
    expect(scope.split(' ').sort()).toEqual(['catalog:read', 'merchant:read', 'orders:read', 'orders:write']);
    const auth = { authorization: `Bearer ${token}` };
    const merchant = await stack.api(`/v1/merchant/${d.merchantId}`, { headers: auth });
    expect(merchant.status).toBe(200);
    expect(((await merchant.json()) as { id: string }).id).toBe(d.merchantId);
    const menus = await stack.api(`/v1/merchant/${d.merchantId}/menus`, { headers: auth });
    expect(menus.status).toBe(200);
    const [menu] = (await menus.json()) as { items: unknown[] }[];
    expect(menu.items.length).toBeGreaterThan(0);

    // the sample order was created after the credential: the poll line shows its CREATED event,
    // then the order, the ack and an action work as the printed lines say
    expect(d.warnings).toEqual([]);
    expect(d.orderId).toMatch(/^[0-9a-f-]{36}$/);
    type Ev = { eventId: string; eventType: string; orderId: string; orderURL: string };
    // demo waited for the event to reach the feed: the very first poll shows it
    const poll = await stack.api('/v1/events:polling?limit=100', { headers: auth });
    expect(poll.status).toBe(200);
    const events = (await poll.json()) as Ev[];
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ eventType: 'CREATED', orderId: d.orderId });
    const orderPath = new URL(events[0].orderURL).pathname;
    const order = await stack.api(orderPath, { headers: auth });
    expect(order.status).toBe(200);
    expect(await order.json()).toMatchObject({ id: d.orderId, test: true });
    const ack = await stack.api('/v1/events/acknowledgment', {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify([{ id: events[0].eventId }]),
    });
    expect(ack.status).toBe(202);
    expect(await ack.json()).toEqual({ acknowledged: 1 });
    const confirm = await stack.api(`${orderPath}/confirm`, {
      method: 'POST',
      headers: { ...auth, 'idempotency-key': `demo-${d.orderId}` },
    });
    expect(confirm.status).toBe(202);
    expect(await confirm.json()).toEqual({ status: 'accepted', situation: 'ACCEPTED' });
  });

  const hasCurl = spawnSync('curl', ['--version']).status === 0;
  it.skipIf(!hasCurl)(
    'demo --shell prints a script that runs the whole integration cycle with curl',
    async () => {
      const r = await odctl(stack, 'demo', '--shell', '--public-url', stack.gateway.publicUrl);
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      // asynchronous: the stack answers the script's requests from this very process
      const run = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
        execFile('sh', ['-e', '-c', r.stdout], { timeout: 20_000 }, (err, stdout, stderr) =>
          resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
        );
      });
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      const out = run.stdout.trim().split('\n');
      expect(out[0]).toMatch(/^eyJ/); // the token
      expect(out).toContain('{"acknowledged":1}');
      expect(out.at(-1)).toBe('{"status":"accepted","situation":"ACCEPTED"}');
    },
  );

  it('credential commands cover the lifecycle; list never shows secrets', async () => {
    const store = await odctl(stack, 'store', 'create', '--test');
    const id = store.out.id as string;
    const created = await odctl(
      stack,
      ...['credential', 'create', id, '--name', 'hub', '--scopes', 'orders:read,orders:write'],
      ...['--mode', 'BOTH', '--webhook-url', 'https://hub.example.com/od', '--marketplace'],
    );
    expect(created.stderr).toBe('');
    expect(created.out.clientId).toMatch(/^odc_[0-9a-f]{24}$/);
    expect(created.out.webhookSecret).toMatch(/^whsec_/);
    const clientId = created.out.clientId as string;
    const list = await odctl(stack, 'credential', 'list', id);
    expect(list.code).toBe(0);
    expect(list.stdout).not.toContain(created.out.clientSecret);
    expect(list.stdout).not.toContain(created.out.webhookSecret);
    expect(JSON.stringify(list.out)).toContain(clientId);

    const paused = await odctl(stack, 'credential', 'pause', clientId);
    expect(paused.code).toBe(0);
    expect(paused.stdout).toContain('PAUSED');
    expect((await odctl(stack, 'credential', 'resume', clientId)).stdout).toContain('ACTIVE');
    expect((await odctl(stack, 'credential', 'rename', clientId, 'hub 2')).stdout).toContain('hub 2');
    const rotated = await odctl(stack, 'credential', 'rotate-webhook-secret', clientId);
    expect(rotated.code).toBe(0);
    expect(rotated.out.webhookSecret).toMatch(/^whsec_/);
    expect(rotated.out.webhookSecret).not.toBe(created.out.webhookSecret);
    // the feed learns credentials from the KV bucket, asynchronously: allow it a moment
    let feed = await odctl(stack, 'events', clientId, '--state', 'pending', '--limit', '5');
    for (let i = 0; i < 50 && feed.code !== 0; i++) {
      await new Promise((r) => setTimeout(r, 100));
      feed = await odctl(stack, 'events', clientId, '--state', 'pending', '--limit', '5');
    }
    expect(feed.code).toBe(0);
    expect(feed.out).toMatchObject({ clientId, items: [] });
    expect((await odctl(stack, 'webhook', 'attempts', clientId)).code).toBe(0);
    expect((await odctl(stack, 'credential', 'revoke', clientId)).stdout).toContain('REVOKED');
    const bad = await odctl(stack, 'credential', 'create', id, '--mode', 'SOMETIMES');
    expect(bad.code).toBe(1);
    expect(bad.err).toMatchObject({ error: 'usage' });
  });

  it('order create, action and cancel drive an order through the panel routes', async () => {
    const store = await odctl(stack, 'store', 'create', '--test', '--sample');
    await odctl(stack, 'store', 'menu', 'set', store.out.id, '--sample');
    const created = await odctl(stack, 'order', 'create', store.out.id, '--type', 'TAKEOUT');
    expect(created.stderr).toBe('');
    expect(created.out).toMatchObject({ type: 'TAKEOUT', test: true });
    const confirmed = await odctl(stack, 'order', 'action', created.out.id, 'confirm');
    expect(confirmed.code).toBe(0);
    expect(confirmed.out).toMatchObject({ situation: 'ACCEPTED' });
    const cancelled = await odctl(
      stack,
      'order',
      'cancel',
      created.out.id,
      '--by',
      'CUSTOMER',
      '--reason',
      'desistiu',
    );
    expect(cancelled.code).toBe(0);
    const again = await odctl(stack, 'order', 'action', created.out.id, 'confirm');
    expect(again.code).toBe(1);
    expect(again.err).toMatchObject({ status: 422 });
  });

  it('order cancellation-request and cancellation-decision drive the Open Delivery handshake', async () => {
    const store = await odctl(stack, 'store', 'create', '--name', 'Loja handshake');
    const created = await odctl(stack, 'order', 'create', store.out.id, '--type', 'DELIVERY');
    const id = created.out.id;
    const asked = await odctl(
      stack,
      'order',
      'cancellation-request',
      id,
      '--by',
      'CUSTOMER',
      '--reason',
      'demora',
    );
    expect(asked.code).toBe(0);
    expect(asked.out).toEqual({ status: 'accepted', situation: 'PENDING' });
    const again = await odctl(stack, 'order', 'cancellation-request', id, '--by', 'PLATFORM');
    expect(again.out).toEqual({ status: 'already_applied', situation: 'PENDING' });
    // the customer's request is answered by the point of sale, not by the platform: nothing to decide
    const decision = await odctl(stack, 'order', 'cancellation-decision', id, 'accept');
    expect(decision.code).toBe(1);
    expect(decision.err).toMatchObject({ status: 422 });
    const view = await stack.admin('GET', `/admin/v1/orders/${id}`);
    expect(await view.json()).toMatchObject({
      situation: 'PENDING',
      cancellationRequest: {
        party: 'ORDERING_APP',
        reason: 'demora',
        code: 'CONSUMER_CANCELLATION_REQUESTED',
      },
    });
  });

  it('user invite prints the setup link; list shows the user; remove takes the store away', async () => {
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
