import { randomUUID } from 'node:crypto';
import { connect, type NatsConnection, headers as natsHeaders } from '@nats-io/transport-node';
import { callRpcJson } from '@od/bus';
import { INTERNAL_OPS, names, SCOPES, type Scope, STATUS_HEADER } from '@od/contracts';
import type { TestStack } from '@od/testing';

/**
 * Helpers of the auth tests (HTTP only, as an integrator and the panel would). Stores come from the
 * catalog's Admin API; while that route does not exist yet, a stand-in answers catalog's
 * `internal.merchantSnapshot` for the stores created here (nothing else is replaced).
 */
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
    }>,
  ): Promise<{ status: number; json: Record<string, any> }>;
  /** store + credential (all scopes unless given) */
  credential(scopes?: Scope[]): Promise<{ merchantId: string; clientId: string; clientSecret: string }>;
  token(clientId: string, clientSecret: string, gateway?: number): Promise<Response>;
  rpc<T>(service: 'auth' | 'catalog', op: string, body: unknown): Promise<{ status: number; body: T }>;
  close(): Promise<void>;
}

export async function authTestKit(stack: TestStack): Promise<AuthTestKit> {
  const nc = await connect({ servers: stack.config.NATS_URL });
  const n = names(stack.config.NATS_PREFIX);
  const stubbed = new Set<string>();
  let stub = false;
  const kit: AuthTestKit = {
    nc,
    async createStore() {
      if (!stub) {
        const r = await stack.admin('POST', '/admin/v1/merchants', { name: 'Loja auth', test: true });
        if (r.status === 201) return ((await r.json()) as { id: string }).id;
        if (r.status !== 404) throw new Error(`store creation failed: ${r.status} ${await r.text()}`);
        stub = true;
        nc.subscribe(n.rpc('catalog', INTERNAL_OPS.merchantSnapshot), {
          queue: 'catalog',
          callback: (_e, m) => {
            const id = (m.json() as { body?: { merchantId?: string } }).body?.merchantId ?? '';
            const found = stubbed.has(id);
            m.respond(
              JSON.stringify(
                found
                  ? { merchant: { id, name: 'Loja auth' }, test: true, menu: null }
                  : { error: 'merchant_not_found', message: 'Loja não encontrada.' },
              ),
              { headers: statusHeaders(found ? 200 : 404) },
            );
          },
        });
        await nc.flush();
      }
      const id = randomUUID();
      stubbed.add(id);
      return id;
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
    token: (clientId, clientSecret, gateway = 0) =>
      stack.api(
        '/oauth/token',
        {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({
            grant_type: 'client_credentials',
            client_id: clientId,
            client_secret: clientSecret,
          }).toString(),
        },
        gateway,
      ),
    rpc: (service, op, body) => callRpcJson(nc, n.rpc(service, op), { traceId: randomUUID(), body }, 5000),
    close: () => nc.close(),
  };
  return kit;
}

function statusHeaders(status: number) {
  const h = natsHeaders();
  h.set(STATUS_HEADER, String(status));
  return h;
}
