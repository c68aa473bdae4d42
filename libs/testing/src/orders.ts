import { randomUUID } from 'node:crypto';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { names, type OrderEventMessage } from '@od/contracts';
import type { TestStack } from './stack.ts';

/** Test helpers for orders: stores and orders through the admin API, the order-event stream read back. */

export interface TestMenu {
  burger: string;
  pizza: string;
  unavailable: string;
  groupAdicionais: string;
  bacon: string;
  queijo: string;
  esgotado: string;
}

/** A store through the admin API (catalog), with a small menu; `test: true` for a test store. */
export async function createMerchant(
  stack: TestStack,
  opts: { test?: boolean; name?: string } = {},
): Promise<{ merchantId: string; menu: TestMenu }> {
  const res = await stack.admin('POST', '/admin/v1/merchants', {
    name: opts.name ?? 'Cantina do Teste',
    test: opts.test ?? false,
  });
  if (res.status !== 201) throw new Error(`create merchant: ${res.status} ${await res.text()}`);
  const merchantId = ((await res.json()) as { id: string }).id;
  const m: TestMenu = {
    burger: randomUUID(),
    pizza: randomUUID(),
    unavailable: randomUUID(),
    groupAdicionais: randomUUID(),
    bacon: randomUUID(),
    queijo: randomUUID(),
    esgotado: randomUUID(),
  };
  const menu = {
    name: 'Cardápio',
    categories: [
      { id: randomUUID(), name: 'Lanches', index: 0, itemOfferIds: [m.burger, m.pizza, m.unavailable] },
    ],
    items: [
      {
        id: m.burger,
        name: 'X-Burger',
        externalCode: 'XB',
        price: { value: 30 },
        optionGroupIds: [m.groupAdicionais],
      },
      {
        id: m.pizza,
        name: 'Pizza Calabresa',
        externalCode: 'PZ-CAL',
        variations: [
          { name: 'Pequena', price: { value: 40 }, externalCode: 'PZ-CAL-P' },
          { name: 'Grande', price: { value: 60 }, externalCode: 'PZ-CAL-G' },
        ],
      },
      { id: m.unavailable, name: 'Moqueca', externalCode: 'MQ', status: 'UNAVAILABLE', price: { value: 80 } },
    ],
    optionGroups: [
      {
        id: m.groupAdicionais,
        name: 'Adicionais',
        minPermitted: 0,
        maxPermitted: 2,
        options: [
          { id: m.bacon, name: 'Bacon', externalCode: 'AD-BAC', price: { value: 5 } },
          { id: m.queijo, name: 'Queijo extra', externalCode: 'AD-QJ', price: { value: 3.5 } },
          { id: m.esgotado, name: 'Ovo', externalCode: 'AD-OVO', status: 'UNAVAILABLE', price: { value: 2 } },
        ],
      },
    ],
  };
  const put = await stack.admin('PUT', `/admin/v1/merchants/${merchantId}/menu`, menu);
  if (put.status !== 200) throw new Error(`put menu: ${put.status} ${await put.text()}`);
  return { merchantId, menu: m };
}

export async function createOrder(
  stack: TestStack,
  merchantId: string,
  body: Record<string, unknown> = { type: 'DELIVERY' },
): Promise<Record<string, any>> {
  const res = await stack.admin('POST', `/admin/v1/merchants/${merchantId}/orders`, body);
  if (res.status !== 201) throw new Error(`create order: ${res.status} ${await res.text()}`);
  return (await res.json()) as Record<string, any>;
}

export interface StreamEvent {
  seq: number;
  subject: string;
  msgId: string | undefined;
  message: OrderEventMessage;
}

/** Every message of the stack's order-event stream, in stream order (read with JetStream). */
export async function readStream(natsUrl: string, prefix: string): Promise<StreamEvent[]> {
  const nc = await connect({ servers: natsUrl });
  try {
    const n = names(prefix);
    const jsm = await jetstreamManager(nc);
    const info = await jsm.streams.info(n.orderEventsStream).catch(() => undefined);
    if (!info || info.state.messages === 0) return [];
    const out: StreamEvent[] = [];
    for (let seq = info.state.first_seq; seq <= info.state.last_seq; seq++) {
      const m = await jsm.streams.getMessage(n.orderEventsStream, { seq }).catch(() => null);
      if (!m) continue;
      out.push({
        seq,
        subject: m.subject,
        msgId: m.header?.get('Nats-Msg-Id') || undefined,
        message: m.json<OrderEventMessage>(),
      });
    }
    return out;
  } finally {
    await nc.close();
  }
}

/** Polls the stream until `until(events)` holds (generous timeout: shared 2-core machine). */
export async function waitForStream(
  natsUrl: string,
  prefix: string,
  until: (events: StreamEvent[]) => boolean,
  timeoutMs = 15_000,
): Promise<StreamEvent[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const events = await readStream(natsUrl, prefix);
    if (until(events)) return events;
    if (Date.now() > deadline) return events;
    await new Promise((r) => setTimeout(r, 100));
  }
}

export const eventsOf = (events: StreamEvent[], orderId: string) =>
  events.filter((e) => e.message.envelope.orderId === orderId);
