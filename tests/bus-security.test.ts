import { connect, type NatsConnection, headers as natsHeaders } from '@nats-io/transport-node';
import { busCounters, callRpc, loadRpcKeys, type RpcReply, signContext } from '@od/bus';
import {
  CREDENTIAL_OPS,
  INTERNAL_OPS,
  names,
  type OpSpec,
  ORDER_OPS,
  type Principal,
  type RpcRequest,
  SIGNATURE_HEADER,
  type SignerName,
} from '@od/contracts';
import { createMerchant, createOrder, issueTestToken, startStack, type TestStack } from '@od/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * Issue 10 item 1: a client on the bus with no key of the platform can neither read nor change
 * anything; signed contexts cannot be altered, replayed late or used for another op; a service
 * calling an op it is not allowed to call is refused.
 */
describe('the caller is proven on the bus', () => {
  let stack: TestStack;
  let nc: NatsConnection;
  let merchantId: string;
  let orderId: string;
  const subject = (op: OpSpec) => names(stack.prefix).rpc(op.service, op.name);
  const json = (r: RpcReply) => JSON.parse(Buffer.from(r.body).toString('utf8'));
  const situation = async () => {
    const r = await stack.admin('GET', `/admin/v1/orders/${orderId}`);
    return ((await r.json()) as { situation: string }).situation;
  };
  const credentialCount = async () => {
    const r = await stack.admin('GET', `/admin/v1/merchants/${merchantId}/credentials`);
    return ((await r.json()) as unknown[]).length;
  };
  const signed = (
    as: SignerName,
    op: OpSpec,
    req: Omit<RpcRequest, 'ctx' | 'auth'>,
    principal: Principal,
    now?: number,
  ) =>
    signContext(
      { name: as, privateKey: loadRpcKeys(as, stack.config).privateKey },
      subject(op),
      req,
      principal,
      { now },
    );
  const credential = (): Principal => ({
    kind: 'credential',
    clientId: 'odc_x',
    merchantId,
    scopes: ['orders:read', 'orders:write'],
  });

  beforeAll(async () => {
    stack = await startStack();
    nc = await connect({ servers: stack.config.NATS_URL });
    ({ merchantId } = await createMerchant(stack));
    orderId = (await createOrder(stack, merchantId)).id;
    await issueTestToken(stack, { merchantId });
  }, 120_000);
  afterAll(async () => {
    await nc?.close();
    await stack?.stop();
  });

  it('a client with no key is refused on every subject: 401, nothing read, nothing changed', async () => {
    const auth = {
      merchantId,
      clientId: 'odc_000000000000000000000000',
      scopes: ['orders:read', 'orders:write'],
    };
    const before = { situation: await situation(), credentials: await credentialCount() };
    const refusedBefore = busCounters.refused.unsigned ?? 0;
    const attempts: [OpSpec, RpcRequest][] = [
      [ORDER_OPS.action, { traceId: 'x1', auth, params: { orderId, action: 'confirm' } }],
      [ORDER_OPS.get, { traceId: 'x2', auth, params: { orderId } }],
      [ORDER_OPS.adminCancel, { traceId: 'x3', params: { orderId }, body: { by: 'MERCHANT' } }],
      [
        CREDENTIAL_OPS.create,
        { traceId: 'x4', body: { merchantId, body: { name: 'evil', scopes: ['orders:read'] } } },
      ],
      [INTERNAL_OPS.webhookSecrets, { traceId: 'x5', body: { clientId: auth.clientId } }],
    ];
    for (const [op, req] of attempts) {
      const r = await callRpc(nc, subject(op), req, 5000);
      expect(r.status, op.name).toBe(401);
      const body = json(r);
      expect(Object.keys(body).sort()).toEqual(['status', 'title', 'traceId', 'type']);
      expect(JSON.stringify(body)).not.toContain(orderId);
    }
    expect(busCounters.refused.unsigned).toBe(refusedBefore + attempts.length);
    expect({ situation: await situation(), credentials: await credentialCount() }).toEqual(before);
    expect(before.situation).toBe('PENDING');
  });

  it('a forged signature header (no key) is refused', async () => {
    const { payload } = signed(
      'gateway',
      ORDER_OPS.get,
      { traceId: 'f1', params: { orderId } },
      credential(),
    );
    const h = natsHeaders();
    h.set(SIGNATURE_HEADER, `gateway.${Buffer.alloc(64, 7).toString('base64url')}`);
    const msg = await nc.request(subject(ORDER_OPS.get), payload, { timeout: 5000, headers: h });
    expect(msg.headers?.get('x-status')).toBe('401');
  });

  it('an altered, expired, or replayed-elsewhere signed context is refused; the genuine one works', async () => {
    const req = { traceId: 'a1', params: { orderId } };
    const genuine = signed('gateway', ORDER_OPS.get, req, credential());
    expect((await callRpc(nc, subject(ORDER_OPS.get), genuine, 5000)).status).toBe(200);

    // altered: the store in the signed context changed after signing
    const text = Buffer.from(genuine.payload).toString('utf8').replace(merchantId, crypto.randomUUID());
    const altered = { payload: new TextEncoder().encode(text), signature: genuine.signature };
    expect((await callRpc(nc, subject(ORDER_OPS.get), altered, 5000)).status).toBe(401);

    const expired = signed('gateway', ORDER_OPS.get, req, credential(), Date.now() - 60_000);
    expect((await callRpc(nc, subject(ORDER_OPS.get), expired, 5000)).status).toBe(401);

    // a valid context for `get` sent to `action` (bound to its subject)
    const moved = await callRpc(nc, subject(ORDER_OPS.action), genuine, 5000);
    expect(moved.status).toBe(401);
    expect(await situation()).toBe('PENDING');
  });

  it('each op accepts only its callers: a service asking for what it may not is refused (403)', async () => {
    const before = busCounters.refused.caller_not_allowed ?? 0;
    // only webhook may ask for webhook secrets
    const asOrders = signed(
      'orders',
      INTERNAL_OPS.webhookSecrets,
      { traceId: 's1', body: { clientId: 'odc_x' } },
      { kind: 'service', service: 'orders' },
    );
    expect((await callRpc(nc, subject(INTERNAL_OPS.webhookSecrets), asOrders, 5000)).status).toBe(403);
    // route ops are for front doors only
    const service = signed(
      'webhook',
      ORDER_OPS.action,
      { traceId: 's2', params: { orderId, action: 'confirm' } },
      { kind: 'service', service: 'webhook' },
    );
    expect((await callRpc(nc, subject(ORDER_OPS.action), service, 5000)).status).toBe(403);
    // an admin principal cannot use a credential op, nor a credential an admin op
    const admin = signed(
      'gateway',
      ORDER_OPS.action,
      { traceId: 's3', params: { orderId, action: 'confirm' } },
      { kind: 'admin' },
    );
    expect((await callRpc(nc, subject(ORDER_OPS.action), admin, 5000)).status).toBe(403);
    expect(busCounters.refused.caller_not_allowed).toBe(before + 3);
    // a service key cannot mint a front door's principal (a compromised orders cannot be a credential)
    const minted = signed(
      'orders',
      ORDER_OPS.action,
      { traceId: 's4', params: { orderId, action: 'confirm' } },
      credential(),
    );
    expect((await callRpc(nc, subject(ORDER_OPS.action), minted, 5000)).status).toBe(401);
    // nor sign as another service
    const lying = signed(
      'orders',
      INTERNAL_OPS.webhookSecrets,
      { traceId: 's5', body: { clientId: 'odc_x' } },
      { kind: 'service', service: 'webhook' },
    );
    expect((await callRpc(nc, subject(INTERNAL_OPS.webhookSecrets), lying, 5000)).status).toBe(401);
    expect(await situation()).toBe('PENDING');
    // the allowed caller gets through (404: no such credential, but admitted)
    const asWebhook = signed(
      'webhook',
      INTERNAL_OPS.webhookSecrets,
      { traceId: 's6', body: { clientId: 'odc_x' } },
      { kind: 'service', service: 'webhook' },
    );
    expect((await callRpc(nc, subject(INTERNAL_OPS.webhookSecrets), asWebhook, 5000)).status).toBe(404);
  });

  it('through the gateway everything still works (the gateway signs for the credential)', async () => {
    const t = await issueTestToken(stack, { merchantId, scopes: ['orders:read', 'orders:write'] });
    const r = await stack.api(`/v1/orders/${orderId}/confirm`, {
      method: 'POST',
      headers: { authorization: `Bearer ${t.token}` },
    });
    expect(r.status).toBe(202);
    expect(await situation()).toBe('ACCEPTED');
  });
});
