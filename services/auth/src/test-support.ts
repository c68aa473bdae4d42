import { randomUUID } from 'node:crypto';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import type { RpcClient } from '@od/bus';
import { type CallInput, type OpSpec, type ReplyOf, SCOPES, type Scope } from '@od/contracts';
import { requestToken, type TestStack, testRpc } from '@od/testing';

/** Helpers of the auth tests (HTTP only, as an integrator and the panel would). */
export interface AuthTestKit {
  nc: NatsConnection;
  createStore(): Promise<string>;
  createCredential(
    merchantId: string,
    body?: Partial<{
      name: string;
      scopes: Scope[];
      deliveryMode: string;
      webhookUrl: string | null;
      includeMarketplaceOrders: boolean;
      apiProfile: string;
    }>,
  ): Promise<{ status: number; json: Record<string, any> }>;
  /** store + credential (all scopes unless given) */
  credential(scopes?: Scope[]): Promise<{ merchantId: string; clientId: string; clientSecret: string }>;
  token(clientId: string, clientSecret: string, gateway?: number): Promise<Response>;
  /** a signed call as `as` (default the admin API through the gateway's key) */
  rpc<O extends OpSpec>(
    op: O,
    body: CallInput<O>['body'],
    as?: 'webhook' | 'feed',
  ): Promise<{ status: number; body: ReplyOf<O> }>;
  close(): Promise<void>;
}

export async function authTestKit(stack: TestStack): Promise<AuthTestKit> {
  const nc = await connect({ servers: stack.config.NATS_URL });
  const kit: AuthTestKit = {
    nc,
    async createStore() {
      const r = await stack.admin('POST', '/admin/v1/merchants', { name: 'Loja auth', test: true });
      if (r.status !== 201) throw new Error(`store creation failed: ${r.status} ${await r.text()}`);
      return ((await r.json()) as { id: string }).id;
    },
    async createCredential(merchantId, body = {}) {
      const r = await stack.admin('POST', `/admin/v1/merchants/${merchantId}/credentials`, {
        name: 'PDV',
        scopes: [...SCOPES],
        deliveryMode: 'POLLING',
        ...body,
      });
      return { status: r.status, json: (await r.json()) as Record<string, any> };
    },
    async credential(scopes = [...SCOPES]) {
      const merchantId = await kit.createStore();
      const r = await kit.createCredential(merchantId, { scopes });
      if (r.status !== 201)
        throw new Error(`credential creation failed: ${r.status} ${JSON.stringify(r.json)}`);
      return { merchantId, clientId: r.json.clientId, clientSecret: r.json.clientSecret };
    },
    token: (clientId, clientSecret, gateway = 0) => requestToken(stack, clientId, clientSecret, gateway),
    rpc: (op, body, as) => {
      const client: RpcClient = testRpc(nc, stack.config, as ?? 'gateway');
      const principal = as ? undefined : ({ kind: 'admin' } as const);
      return client.callJson(op, { body } as CallInput<typeof op>, {
        traceId: randomUUID(),
        principal,
        timeoutMs: 5000,
      });
    },
    close: () => nc.close(),
  };
  return kit;
}
