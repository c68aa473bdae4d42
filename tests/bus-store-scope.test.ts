import { connect, type NatsConnection } from '@nats-io/transport-node';
import { callRpc, loadRpcKeys, type RpcReply, signContext } from '@od/bus';
import {
  CATALOG_OPS,
  CREDENTIAL_OPS,
  FEED_OPS,
  names,
  type OpSpec,
  ORDER_OPS,
  PANEL_AREAS,
  type PanelArea,
  type Principal,
  type RpcRequest,
  WEBHOOK_OPS,
} from '@od/contracts';
import { createMerchant, createOrder, issueTestToken, startStack, type TestStack } from '@od/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * A merchant user's request is scoped by the service that owns the data, not only by the panel that
 * asserted it: a validly signed `merchantUser` context naming another store's store, credential or
 * order gets 404 and changes nothing; an op outside the role's areas gets 403.
 */
describe('merchant users are scoped to their store by the owning services', () => {
  let stack: TestStack;
  let nc: NatsConnection;
  let mine: { merchantId: string; orderId: string; clientId: string };
  let theirs: { merchantId: string; orderId: string; clientId: string };
  const subject = (op: OpSpec) => names(stack.prefix).rpc(op.service, op.name);
  const user = (merchantId: string, scopes: readonly PanelArea[] = PANEL_AREAS): Principal => ({
    kind: 'merchantUser',
    userId: 'u1',
    merchantId,
    scopes: [...scopes],
  });
  const call = (op: OpSpec, req: Omit<RpcRequest, 'ctx' | 'auth' | 'traceId'>, principal: Principal) =>
    callRpc(
      nc,
      subject(op),
      signContext(
        { name: 'panel', privateKey: loadRpcKeys('panel', stack.config).privateKey },
        subject(op),
        { traceId: 'scope', ...req },
        principal,
      ),
      5000,
    );
  const json = (r: RpcReply) => JSON.parse(Buffer.from(r.body).toString('utf8'));
  const store = async () => {
    const { merchantId } = await createMerchant(stack);
    const orderId = (await createOrder(stack, merchantId)).id;
    const r = await stack.admin('POST', `/admin/v1/merchants/${merchantId}/credentials`, {
      name: 'pos',
      scopes: ['orders:read'],
      deliveryMode: 'POLLING',
    });
    const { clientId } = (await r.json()) as { clientId: string };
    if (!clientId) throw new Error(`credential not created: ${r.status}`);
    return { merchantId, orderId, clientId };
  };

  beforeAll(async () => {
    stack = await startStack();
    nc = await connect({ servers: stack.config.NATS_URL });
    mine = await store();
    theirs = await store();
    await issueTestToken(stack, { merchantId: mine.merchantId });
  }, 120_000);
  afterAll(async () => {
    await nc?.close();
    await stack?.stop();
  });

  it('serves the user its own store', async () => {
    const me = user(mine.merchantId);
    const checks: [OpSpec, Omit<RpcRequest, 'ctx' | 'auth' | 'traceId'>][] = [
      [CREDENTIAL_OPS.list, { body: { merchantId: mine.merchantId } }],
      [ORDER_OPS.adminGet, { params: { orderId: mine.orderId } }],
      [CATALOG_OPS.adminGet, { params: { merchantId: mine.merchantId } }],
      [WEBHOOK_OPS.status, { params: { clientId: mine.clientId } }],
      [FEED_OPS.adminEvents, { params: { clientId: mine.clientId }, query: {} }],
    ];
    for (const [op, req] of checks) expect((await call(op, req, me)).status, op.name).toBe(200);
  });

  it("answers 404 for another store's store, credential or order, and changes nothing", async () => {
    const me = user(mine.merchantId);
    const checks: [OpSpec, Omit<RpcRequest, 'ctx' | 'auth' | 'traceId'>][] = [
      [CREDENTIAL_OPS.list, { body: { merchantId: theirs.merchantId } }],
      [CREDENTIAL_OPS.pause, { body: { clientId: theirs.clientId } }],
      [CREDENTIAL_OPS.revoke, { body: { clientId: theirs.clientId.toUpperCase() } }],
      [ORDER_OPS.adminGet, { params: { orderId: theirs.orderId } }],
      [ORDER_OPS.adminAction, { params: { orderId: theirs.orderId, action: 'confirm' }, body: {} }],
      [CATALOG_OPS.adminPatch, { params: { merchantId: theirs.merchantId }, body: { name: 'mine now' } }],
      [WEBHOOK_OPS.clearQueue, { params: { clientId: theirs.clientId } }],
      [FEED_OPS.adminEvents, { params: { clientId: theirs.clientId }, query: {} }],
    ];
    for (const [op, req] of checks) {
      const r = await call(op, req, me);
      expect(r.status, op.name).toBe(404);
      expect(json(r).error).toBe('not_found');
    }
    const creds = (await (
      await stack.admin('GET', `/admin/v1/merchants/${theirs.merchantId}/credentials`)
    ).json()) as { status: string }[];
    expect(creds.map((c) => c.status)).toEqual(['ACTIVE']);
    const order = (await (await stack.admin('GET', `/admin/v1/orders/${theirs.orderId}`)).json()) as {
      situation: string;
    };
    expect(order.situation).toBe('PENDING');
    const merchant = (await (
      await stack.admin('GET', `/admin/v1/merchants/${theirs.merchantId}`)
    ).json()) as {
      name: string;
    };
    expect(merchant.name).not.toBe('mine now');
  });

  it("answers 403 for an op outside the role's areas, even at the user's own store", async () => {
    const staff = user(mine.merchantId, ['orders', 'menu', 'store']);
    const r = await call(
      CREDENTIAL_OPS.create,
      { body: { merchantId: mine.merchantId, body: { name: 'x', scopes: ['orders:read'] } } },
      staff,
    );
    expect(r.status).toBe(403);
    expect((await call(CREDENTIAL_OPS.pause, { body: { clientId: mine.clientId } }, staff)).status).toBe(403);
    expect((await call(ORDER_OPS.adminGet, { params: { orderId: mine.orderId } }, staff)).status).toBe(200);
    const creds = (await (
      await stack.admin('GET', `/admin/v1/merchants/${mine.merchantId}/credentials`)
    ).json()) as { status: string }[];
    expect(creds.map((c) => c.status)).toEqual(['ACTIVE']);
  });
});
