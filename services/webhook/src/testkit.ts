// Test helpers of the webhook service (imported by its tests only).
import { randomBytes, randomUUID } from 'node:crypto';
import { jetstream } from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { loadRpcKeys, serveOp } from '@od/bus';
import {
  type CredentialRecord,
  type EventEnvelope,
  INTERNAL_OPS,
  names,
  type OrderChannel,
  type OrderEventMessage,
} from '@od/contracts';
import { createLogger } from '@od/logger';
import { issueTestToken, type StackOptions, startStack, type TestStack } from '@od/testing';

export const newSecret = () => `whsec_${randomBytes(32).toString('base64')}`;

export interface WebhookTestStack {
  stack: TestStack;
  nc: NatsConnection;
  /** signing secrets the stand-in auth hands out, newest first */
  secrets: Map<string, string[]>;
  addCredential(o: {
    merchantId?: string;
    url: string | null;
    mode?: CredentialRecord['deliveryMode'];
    status?: CredentialRecord['status'];
    includeMarketplaceOrders?: boolean;
    createdAt?: string;
  }): Promise<{ clientId: string; merchantId: string; secret: string }>;
  publish(
    merchantId: string,
    o?: { channel?: OrderChannel; eventType?: string; createdAt?: string },
  ): Promise<EventEnvelope>;
  admin<T = any>(method: string, path: string, body?: unknown): Promise<{ status: number; body: T }>;
  /** polls the credential's deliveries until `pred` holds */
  waitDeliveries(clientId: string, pred: (items: any[]) => boolean, timeoutMs?: number): Promise<any[]>;
  stop(): Promise<void>;
}

/**
 * A stack running the webhook service (and the gateway), with a stand-in for auth's
 * `internal.webhookSecrets` and a publisher of order events playing the orders service.
 */
export async function startWebhookStack(opts: StackOptions = {}): Promise<WebhookTestStack> {
  const stack = await startStack({ services: ['webhook'], ...opts });
  const nc = await connect({ servers: stack.config.NATS_URL });
  const n = names(stack.config.NATS_PREFIX);
  const secrets = new Map<string, string[]>();
  const op = INTERNAL_OPS.webhookSecrets;
  const sub = serveOp(
    nc,
    n.rpc(op.service, op.name),
    op,
    (req) => {
      const s = secrets.get(req.body.clientId);
      return s ? { status: 200, body: { secrets: s } } : { status: 404, body: { error: 'not_found' } };
    },
    { queue: 'auth', log: createLogger('stand-in-auth', 'silent'), keys: loadRpcKeys('auth', stack.config) },
  );
  const js = jetstream(nc);
  const seq = new Map<string, number>();
  const admin = async (method: string, path: string, body?: unknown) => {
    const r = await stack.admin(method, path, body);
    const text = await r.text();
    return { status: r.status, body: text ? JSON.parse(text) : undefined };
  };
  return {
    stack,
    nc,
    secrets,
    admin,
    async addCredential(o) {
      const secret = newSecret();
      const created = await issueTestToken(stack, {
        merchantId: o.merchantId,
        record: {
          deliveryMode: o.mode ?? 'WEBHOOK',
          webhookUrl: o.url,
          status: o.status ?? 'ACTIVE',
          includeMarketplaceOrders: o.includeMarketplaceOrders ?? false,
          ...(o.createdAt ? { createdAt: o.createdAt } : {}),
        },
      });
      secrets.set(created.clientId, [secret]);
      // the webhook service sees the credential once its admin status route knows it
      const deadline = Date.now() + 5_000;
      while ((await admin('GET', `/admin/v1/credentials/${created.clientId}/webhook`)).status !== 200) {
        if (Date.now() > deadline) throw new Error('credential never reached the webhook service');
        await new Promise((r) => setTimeout(r, 20));
      }
      return { clientId: created.clientId, merchantId: created.merchantId, secret };
    },
    async publish(merchantId, o = {}) {
      const orderId = randomUUID();
      const envelope: EventEnvelope = {
        eventId: randomUUID(),
        eventType: o.eventType ?? 'CREATED',
        orderId,
        orderURL: `https://api.test.local/v1/orders/${orderId}`,
        createdAt: o.createdAt ?? new Date().toISOString(),
        metadata: { note: 'pão de queijo ✓' },
      };
      const s = (seq.get(orderId) ?? 0) + 1;
      seq.set(orderId, s);
      const msg: OrderEventMessage = {
        merchantId,
        channel: o.channel ?? 'DIGITAL_MENU',
        orderSeq: s,
        envelope,
      };
      await js.publish(n.orderEventSubject(merchantId), JSON.stringify(msg), { msgID: envelope.eventId });
      return envelope;
    },
    async waitDeliveries(clientId, pred, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const r = await admin('GET', `/admin/v1/credentials/${clientId}/webhook-deliveries?limit=200`);
        if (r.status === 200 && pred(r.body.items)) return r.body.items;
        if (Date.now() > deadline) {
          throw new Error(`deliveries never matched: ${JSON.stringify(r.body).slice(0, 1500)}`);
        }
        await new Promise((res) => setTimeout(res, 50));
      }
    },
    async stop() {
      sub.unsubscribe();
      await nc.close().catch(() => {});
      await stack.stop();
    },
  };
}
