// The traffic of the scenario: channels create orders (admin intake), integrators drive them through
// the public API with an Idempotency-Key per action, and one poller per credential reads and
// acknowledges its feed. Everything observed is recorded for the checks in verify.ts.
import { randomUUID } from 'node:crypto';
import { type Answer, type Client, sleep, untilAnswered } from './http.ts';

export interface Plan {
  name: string;
  type: 'DELIVERY' | 'TAKEOUT';
  actions: string[];
  /** situation at the end: DONE, CANCELLED (PENDING for the never-driven probe order) */
  final: string;
  /** events the plan emits, in order */
  events: string[];
}

export const PLANS: Plan[] = [
  {
    name: 'delivery',
    type: 'DELIVERY',
    actions: ['confirm', 'startPreparation', 'readyForPickup', 'dispatch', 'delivered'],
    final: 'DONE',
    events: ['CREATED', 'CONFIRMED', 'PREPARING', 'READY_FOR_PICKUP', 'DISPATCHED', 'CONCLUDED'],
  },
  {
    name: 'takeout',
    type: 'TAKEOUT',
    actions: ['confirm', 'readyForPickup', 'pickedUp'],
    final: 'DONE',
    events: ['CREATED', 'CONFIRMED', 'READY_FOR_PICKUP', 'CONCLUDED'],
  },
  {
    name: 'cancelled',
    type: 'DELIVERY',
    actions: ['confirm', 'requestCancellation'],
    final: 'CANCELLED',
    events: ['CREATED', 'CONFIRMED', 'CANCELLED'],
  },
];

export interface Credential {
  clientId: string;
  clientSecret: string;
  token: string;
  store: number;
}

export interface Store {
  merchantId: string;
  credentials: Credential[];
}

export interface ActionOutcome {
  name: string;
  status: number;
  /** `accepted` | `already_applied` | error code */
  result: string;
  attempts: number;
  /** attempts that failed in a way that may have executed (5xx, timeout, network) */
  ambiguous: number;
  replayed: boolean;
}

export interface DrivenOrder {
  id: string;
  store: number;
  plan: string;
  /** intake attempts; more than one after an ambiguous failure may have created a duplicate */
  intakeAttempts: number;
  intakeAmbiguous: number;
  actions: ActionOutcome[];
  /** false when an action got a final answer other than 202 */
  completed: boolean;
  error?: string;
}

export interface Delivery {
  eventId: string;
  orderId: string;
  eventType: string;
}

/** What one credential's poller saw: every delivery, in order, duplicates included. */
export interface FeedLog {
  clientId: string;
  store: number;
  deliveries: Delivery[];
  pollErrors: number;
  ackErrors: number;
}

const body = (a: Answer) => (a.body && typeof a.body === 'object' ? (a.body as Record<string, unknown>) : {});

/** One order from intake to its final state. */
export async function driveOrder(
  client: Client,
  stores: Store[],
  storeIdx: number,
  plan: Plan,
  pause: number,
): Promise<DrivenOrder | undefined> {
  const store = stores[storeIdx];
  // the same Idempotency-Key on every retry: the intake creates the order once
  const key = randomUUID();
  const created = await untilAnswered(() =>
    client.admin(
      'admin.orders.create',
      'POST',
      `/admin/v1/merchants/${store.merchantId}/orders`,
      { type: plan.type },
      { 'idempotency-key': key },
    ),
  );
  if (created.answer.status !== 201) return undefined;
  const order: DrivenOrder = {
    id: String(body(created.answer).id),
    store: storeIdx,
    plan: plan.name,
    intakeAttempts: created.attempts,
    intakeAmbiguous: created.ambiguous,
    actions: [],
    completed: true,
  };
  for (const name of plan.actions) {
    await sleep(pause);
    const cred = store.credentials[Math.floor(Math.random() * store.credentials.length)];
    const actionKey = randomUUID();
    const init: RequestInit = { method: 'POST', headers: { 'idempotency-key': actionKey } };
    if (name === 'requestCancellation') {
      init.headers = { ...init.headers, 'content-type': 'application/json' };
      init.body = JSON.stringify({ reason: 'chaos', code: 'OTHER_CANCELLATION_REASON' });
    }
    const r = await untilAnswered(() =>
      client.api(`orders.${name}`, `/v1/orders/${order.id}/${name}`, cred.token, init),
    );
    const b = body(r.answer);
    order.actions.push({
      name,
      status: r.answer.status,
      result: String(b.status ?? b.error ?? r.answer.status),
      attempts: r.attempts,
      ambiguous: r.ambiguous,
      replayed: r.answer.headers?.get('idempotent-replayed') === 'true',
    });
    if (r.answer.status !== 202) {
      order.completed = false;
      order.error = `${name}: ${r.answer.status} ${JSON.stringify(r.answer.body)}`;
      break;
    }
  }
  return order;
}

/** Polls and acknowledges one credential's feed until `stop()` returns true. */
export async function pollFeed(client: Client, cred: Credential, log: FeedLog, stop: () => boolean) {
  while (!stop()) {
    const r = await client.api('events.polling', '/v1/events:polling?limit=200', cred.token);
    if (r.status !== 200 || !Array.isArray(r.body)) {
      log.pollErrors++;
      await sleep(200);
      continue;
    }
    const events = r.body as Delivery[];
    for (const e of events)
      log.deliveries.push({ eventId: e.eventId, orderId: e.orderId, eventType: e.eventType });
    if (events.length === 0) {
      await sleep(250);
      continue;
    }
    const ack = await client.api('events.ack', '/v1/events/acknowledgment', cred.token, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(events.map((e) => ({ id: e.eventId }))),
    });
    // not acknowledged: the same events come again (counted as duplicates)
    if (ack.status !== 202) log.ackErrors++;
  }
}

/** Stores with a menu-less catalog entry and `perStore` polling credentials each, with tokens. */
export async function createStores(client: Client, count: number, perStore: number): Promise<Store[]> {
  const stores: Store[] = [];
  for (let s = 0; s < count; s++) {
    const m = await untilAnswered(() =>
      client.admin('admin.merchants.create', 'POST', '/admin/v1/merchants', { name: `Chaos ${s}` }),
    );
    if (m.answer.status !== 201) throw new Error(`create store: ${m.answer.status}`);
    const merchantId = String(body(m.answer).id);
    const credentials: Credential[] = [];
    for (let c = 0; c < perStore; c++) {
      const r = await untilAnswered(() =>
        client.admin('admin.credentials.create', 'POST', `/admin/v1/merchants/${merchantId}/credentials`, {
          name: `chaos ${s}.${c}`,
          scopes: ['orders:read', 'orders:write'],
          deliveryMode: 'POLLING',
        }),
      );
      if (r.answer.status !== 201) throw new Error(`create credential: ${r.answer.status}`);
      const { clientId, clientSecret } = body(r.answer) as { clientId: string; clientSecret: string };
      const t = await untilAnswered(() => client.token(clientId, clientSecret));
      if (t.answer.status !== 200) throw new Error(`token: ${t.answer.status}`);
      credentials.push({ clientId, clientSecret, token: String(body(t.answer).access_token), store: s });
    }
    stores.push({ merchantId, credentials });
  }
  return stores;
}
