import { randomUUID } from 'node:crypto';
import { Kvm } from '@nats-io/kv';
import { type AuthTestKit, authTestKit } from '@od/auth/test-support';
import { INTERNAL_OPS, names } from '@od/contracts';
import { startStack, type TestStack } from '@od/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const HOOK = 'https://pdv.example.com/webhooks/od';

describe('credential administration (Admin API)', () => {
  let stack: TestStack;
  let kit: AuthTestKit;
  let merchantId: string;

  beforeAll(async () => {
    stack = await startStack({ env: { RATE_LIMIT_ENABLED: 'false' } });
    kit = await authTestKit(stack);
    merchantId = await kit.createStore();
  });
  afterAll(async () => {
    await kit?.close();
    await stack?.stop();
  });

  const admin = async (method: string, path: string, body?: unknown) => {
    const r = await stack.admin(method, path, body);
    const text = await r.text();
    return { status: r.status, json: text ? JSON.parse(text) : undefined, headers: r.headers };
  };
  const secrets = (clientId: string) => kit.rpc(INTERNAL_OPS.webhookSecrets, { clientId }, 'webhook');

  it('creates a credential: 201 with secrets shown once, record published to every gateway', async () => {
    const r = await kit.createCredential(merchantId, {
      name: 'PDV loja 1',
      scopes: ['orders:write', 'orders:read', 'orders:read'],
      deliveryMode: 'BOTH',
      webhookUrl: HOOK,
      includeMarketplaceOrders: true,
    });
    expect(r.status).toBe(201);
    expect(r.json).toEqual({
      clientId: expect.stringMatching(/^odc_[0-9a-f]{24}$/),
      clientSecret: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      webhookSecret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/),
      merchantId,
      name: 'PDV loja 1',
      scopes: ['orders:read', 'orders:write'],
      deliveryMode: 'BOTH',
      webhookUrl: HOOK,
      includeMarketplaceOrders: true,
      apiProfile: 'SPEC',
      status: 'ACTIVE',
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      updatedAt: expect.any(String),
    });
    // the gateway's watched view already has it when the admin call answers
    const rec = stack.gateway.ctx.credentials.get(r.json.clientId);
    expect(rec).toMatchObject({ status: 'ACTIVE', merchantId, deliveryMode: 'BOTH', webhookUrl: HOOK });
    expect(JSON.stringify(rec)).not.toContain(r.json.clientSecret);
    expect(JSON.stringify(rec)).not.toContain(r.json.webhookSecret);
    expect((await secrets(r.json.clientId)).body).toEqual({ secrets: [r.json.webhookSecret] });

    const list = await admin('GET', `/admin/v1/merchants/${merchantId}/credentials`);
    expect(list.status).toBe(200);
    const mine = list.json.find((c: { clientId: string }) => c.clientId === r.json.clientId);
    expect(mine).toMatchObject({ name: 'PDV loja 1', status: 'ACTIVE' });
    const text = JSON.stringify(list.json);
    expect(text).not.toContain(r.json.clientSecret);
    expect(text).not.toContain(r.json.webhookSecret);
    expect(text).not.toMatch(/secret/i);
  });

  it('apiProfile OPEN_DELIVERY is set at creation, shown in listings and in every gateway view', async () => {
    const r = await kit.createCredential(merchantId, {
      scopes: ['orders:read'],
      apiProfile: 'OPEN_DELIVERY',
    });
    expect(r.status).toBe(201);
    expect(r.json.apiProfile).toBe('OPEN_DELIVERY');
    expect(stack.gateway.ctx.credentials.get(r.json.clientId)).toMatchObject({ apiProfile: 'OPEN_DELIVERY' });
    const list = await admin('GET', `/admin/v1/merchants/${merchantId}/credentials`);
    const mine = list.json.find((c: { clientId: string }) => c.clientId === r.json.clientId);
    expect(mine.apiProfile).toBe('OPEN_DELIVERY');
    // the profile is fixed: an edit cannot change it
    const edit = await admin('PATCH', `/admin/v1/credentials/${r.json.clientId}`, { apiProfile: 'SPEC' });
    expect(edit.status).toBe(400);
  });

  it('a POLLING credential without URL has no webhook secret; defaults apply', async () => {
    const r = await kit.createCredential(merchantId, { scopes: ['orders:read'] });
    expect(r.status).toBe(201);
    expect(r.json).toMatchObject({ webhookSecret: null, webhookUrl: null, includeMarketplaceOrders: false });
    expect((await secrets(r.json.clientId)).body).toEqual({ secrets: [] });
  });

  it('400 with clear messages for invalid bodies', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ scopes: ['orders:read'], deliveryMode: 'POLLING' }, 'name'],
      [{ name: 'x', scopes: [], deliveryMode: 'POLLING' }, 'scopes'],
      [{ name: 'x', scopes: ['orders:delete'], deliveryMode: 'POLLING' }, 'scopes[0]'],
      [{ name: 'x', scopes: ['orders:read'], deliveryMode: 'SMOKE' }, 'deliveryMode'],
      [{ name: 'x', scopes: ['orders:read'], deliveryMode: 'WEBHOOK' }, 'webhookUrl'],
      [
        { name: 'x', scopes: ['orders:read'], deliveryMode: 'BOTH', webhookUrl: 'http://pdv.example.com/h' },
        'webhookUrl',
      ],
      [
        { name: 'x', scopes: ['orders:read'], deliveryMode: 'WEBHOOK', webhookUrl: 'not a url' },
        'webhookUrl',
      ],
      [{ name: '   ', scopes: ['orders:read'], deliveryMode: 'POLLING' }, 'name'],
      [{ name: 'x', scopes: ['orders:read'], deliveryMode: 'POLLING', apiProfile: 'IFOOD' }, 'apiProfile'],
    ];
    for (const [body, field] of cases) {
      const r = await admin('POST', `/admin/v1/merchants/${merchantId}/credentials`, body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.json.error).toBe('validation_error');
      expect(typeof r.json.message).toBe('string');
      expect(Object.keys(r.json.errors ?? {}), JSON.stringify(r.json)).toContain(field);
    }
  });

  it('404 merchant_not_found for an unknown store or a non-GUID id', async () => {
    for (const id of [randomUUID(), 'not-a-guid']) {
      const r = await admin('POST', `/admin/v1/merchants/${id}/credentials`, {
        name: 'x',
        scopes: ['orders:read'],
        deliveryMode: 'POLLING',
      });
      expect(r.status).toBe(404);
      expect(r.json.error).toBe('merchant_not_found');
    }
    const list = await admin('GET', `/admin/v1/merchants/${randomUUID()}/credentials`);
    expect(list.status).toBe(200);
    expect(list.json).toEqual([]);
  });

  it('PATCH edits name, mode and flag; scopes cannot be edited; saving the URL makes a new secret', async () => {
    const c = await kit.createCredential(merchantId, { deliveryMode: 'WEBHOOK', webhookUrl: HOOK });
    const id = c.json.clientId;
    const first = c.json.webhookSecret as string;

    let r = await admin('PATCH', `/admin/v1/credentials/${id}`, {
      name: 'Renomeada',
      includeMarketplaceOrders: true,
    });
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ name: 'Renomeada', includeMarketplaceOrders: true, webhookUrl: HOOK });
    expect(r.json.webhookSecret).toBeUndefined();
    expect(stack.gateway.ctx.credentials.get(id)?.name).toBe('Renomeada');

    r = await admin('PATCH', `/admin/v1/credentials/${id}`, { scopes: ['orders:read'] });
    expect(r.status).toBe(400);
    expect(r.json.error).toBe('validation_error');

    r = await admin('PATCH', `/admin/v1/credentials/${id}`, {
      deliveryMode: 'BOTH',
      webhookUrl: 'ftp://x.example.com',
    });
    expect(r.status).toBe(400);

    // saving the same URL again still creates a new secret; the old one is dropped
    r = await admin('PATCH', `/admin/v1/credentials/${id}`, { webhookUrl: HOOK });
    expect(r.status).toBe(200);
    expect(r.headers.get('cache-control')).toBe('no-store');
    const second = r.json.webhookSecret as string;
    expect(second).toMatch(/^whsec_/);
    expect(second).not.toBe(first);
    expect((await secrets(id)).body).toEqual({ secrets: [second] });

    // WEBHOOK without URL is refused; POLLING may drop the URL (and its secrets)
    r = await admin('PATCH', `/admin/v1/credentials/${id}`, { webhookUrl: null });
    expect(r.status).toBe(400);
    r = await admin('PATCH', `/admin/v1/credentials/${id}`, { webhookUrl: null, deliveryMode: 'POLLING' });
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ webhookUrl: null, deliveryMode: 'POLLING' });
    expect((await secrets(id)).body).toEqual({ secrets: [] });
    r = await admin('POST', `/admin/v1/credentials/${id}/webhook-secret`);
    expect(r.status).toBe(409);
  });

  it('rotation keeps the previous webhook secret valid (newest first); revoked credentials are frozen', async () => {
    const c = await kit.createCredential(merchantId, { deliveryMode: 'WEBHOOK', webhookUrl: HOOK });
    const id = c.json.clientId;
    const s1 = c.json.webhookSecret as string;
    let r = await admin('POST', `/admin/v1/credentials/${id}/webhook-secret`);
    expect(r.status).toBe(200);
    expect(Object.keys(r.json)).toEqual(['webhookSecret']);
    const s2 = r.json.webhookSecret as string;
    expect((await secrets(id)).body).toEqual({ secrets: [s2, s1] });
    r = await admin('POST', `/admin/v1/credentials/${id}/webhook-secret`);
    const s3 = r.json.webhookSecret as string;
    // at most two: the newest and the one it replaced
    expect((await secrets(id)).body).toEqual({ secrets: [s3, s2] });

    expect((await admin('POST', `/admin/v1/credentials/${id}/revoke`)).status).toBe(200);
    expect((await admin('POST', `/admin/v1/credentials/${id}/revoke`)).json.status).toBe('REVOKED');
    for (const [method, path, body] of [
      ['POST', `/admin/v1/credentials/${id}/pause`, undefined],
      ['POST', `/admin/v1/credentials/${id}/resume`, undefined],
      ['PATCH', `/admin/v1/credentials/${id}`, { name: 'de volta' }],
      ['POST', `/admin/v1/credentials/${id}/webhook-secret`, undefined],
    ] as const) {
      const x = await admin(method, path, body);
      expect(x.status, path).toBe(409);
      expect(x.json.error).toBe('credential_revoked');
    }
    expect(stack.gateway.ctx.credentials.get(id)?.status).toBe('REVOKED');
  });

  it('404 for an unknown clientId on every credential route', async () => {
    const id = 'odc_0123456789abcdef01234567';
    for (const [method, path, body] of [
      ['PATCH', `/admin/v1/credentials/${id}`, { name: 'x' }],
      ['POST', `/admin/v1/credentials/${id}/pause`, undefined],
      ['POST', `/admin/v1/credentials/${id}/resume`, undefined],
      ['POST', `/admin/v1/credentials/${id}/revoke`, undefined],
      ['POST', `/admin/v1/credentials/${id}/webhook-secret`, undefined],
      ['POST', `/admin/v1/credentials/nonsense/pause`, undefined],
    ] as const) {
      const r = await admin(method, path, body);
      expect(r.status, path).toBe(404);
      expect(r.json.error).toBe('credential_not_found');
    }
    expect((await secrets(id)).status).toBe(404);
  });

  it('internal.credentialsByMerchant lists every credential of a store, every status', async () => {
    const store = await kit.createStore();
    const a = await kit.createCredential(store, { name: 'A' });
    const b = await kit.createCredential(store, { name: 'B' });
    await admin('POST', `/admin/v1/credentials/${b.json.clientId}/pause`);
    const r = await kit.rpc(INTERNAL_OPS.credentialsByMerchant, { merchantId: store });
    expect(r.status).toBe(200);
    expect(r.body.map((c) => [c.clientId, c.name, c.status])).toEqual([
      [a.json.clientId, 'A', 'ACTIVE'],
      [b.json.clientId, 'B', 'PAUSED'],
    ]);
    expect(JSON.stringify(r.body)).not.toMatch(/secret/i);
  });

  it('concurrent lifecycle calls: the bucket ends in the state the database holds', async () => {
    const c = await kit.createCredential(merchantId, { name: 'concorrente' });
    const id = c.json.clientId as string;
    await Promise.all(
      Array.from({ length: 16 }, (_, i) =>
        stack.admin('POST', `/admin/v1/credentials/${id}/${i % 2 ? 'resume' : 'pause'}`),
      ),
    );
    const list = await admin('GET', `/admin/v1/merchants/${merchantId}/credentials`);
    const db = list.json.find((x: { clientId: string }) => x.clientId === id);
    const kv = await new Kvm(kit.nc).open(names(stack.config.NATS_PREFIX).credentialsBucket);
    const entry = await kv.get(id);
    expect(entry?.json()).toEqual(db);
    expect(stack.gateway.ctx.credentials.get(id)).toEqual(db);
  });

  it('auth republishes every credential at start: a lost bucket is rebuilt', async () => {
    const c = await kit.createCredential(merchantId, { name: 'sobrevivente' });
    await admin('POST', `/admin/v1/credentials/${c.json.clientId}/pause`);
    const kv = await new Kvm(kit.nc).open(names(stack.config.NATS_PREFIX).credentialsBucket);
    await kv.purge(c.json.clientId);
    expect(await kv.get(c.json.clientId).then((e) => e?.operation)).toBe('PURGE');
    await stack.startService('auth');
    const e = await kv.get(c.json.clientId);
    expect(e?.operation).toBe('PUT');
    expect(e?.json()).toMatchObject({ clientId: c.json.clientId, status: 'PAUSED', name: 'sobrevivente' });
  });
});
