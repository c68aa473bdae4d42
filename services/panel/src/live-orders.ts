import { AckPolicy, type ConsumerMessages, DeliverPolicy, jetstream } from '@nats-io/jetstream';
import type { Subscription } from '@nats-io/transport-node';
import { ensureOrderEventStream, streamSettings } from '@od/bus';
import type { OrderEventMessage } from '@od/contracts';
import type { ServiceBase } from '@od/runtime';
import type { PanelDb } from './db/panel-db.ts';

/** What the board receives over SSE for each order event of its store. */
export interface BoardEvent {
  orderId: string;
  eventType: string;
  createdAt: string;
  /** the order's card after the event (read once per event for every board of the store) */
  card: unknown;
}

type Listener = (e: BoardEvent) => void;

export const PANEL_CONSUMER = 'panel';

export interface LiveOrders {
  /** registers a board of `merchantId`; returns the unsubscribe function */
  listen(merchantId: string, fn: Listener): () => void;
  stop(): Promise<void>;
}

function read(data: unknown): OrderEventMessage | null {
  const m = data as OrderEventMessage;
  return m && typeof m.merchantId === 'string' && typeof m.envelope?.orderId === 'string' ? m : null;
}

/**
 * Two readers of the order-event stream:
 * - a core NATS subscription on every replica: pushes each event to the boards of its store at once
 *   (sub-second; a board that missed events while disconnected reloads its list on reconnect);
 * - a durable JetStream consumer shared by the replicas: keeps `store_orders` (which orders the
 *   board lists) without losing any event, acked after the write.
 */
export async function startLiveOrders(
  base: ServiceBase,
  db: PanelDb,
  loadCard: (merchantId: string, orderId: string) => Promise<unknown>,
): Promise<LiveOrders> {
  const listeners = new Map<string, Set<Listener>>();
  // per store, events are pushed in arrival order even though each waits for its card
  const pushing = new Map<string, Promise<void>>();
  const sub: Subscription = base.nc.subscribe(base.names.orderEventSubjects, {
    callback: (err, msg) => {
      if (err) return;
      let m: OrderEventMessage | null = null;
      try {
        m = read(msg.json());
      } catch {
        return;
      }
      if (!m) return;
      const { merchantId, envelope } = m;
      if (!listeners.has(merchantId)) return;
      const card = loadCard(merchantId, envelope.orderId);
      const next = (pushing.get(merchantId) ?? Promise.resolve()).then(async () => {
        const event = {
          orderId: envelope.orderId,
          eventType: envelope.eventType,
          createdAt: envelope.createdAt,
          card: await card,
        };
        for (const fn of listeners.get(merchantId) ?? []) fn(event);
      });
      pushing.set(merchantId, next);
      void next.finally(() => {
        if (pushing.get(merchantId) === next) pushing.delete(merchantId);
      });
    },
  });

  const jsm = await ensureOrderEventStream(base.nc, base.names, streamSettings(base.config), base.log);
  await jsm.consumers
    .add(base.names.orderEventsStream, {
      durable_name: PANEL_CONSUMER,
      ack_policy: AckPolicy.Explicit,
      deliver_policy: DeliverPolicy.All,
      ack_wait: 10_000_000_000,
      max_deliver: -1,
    })
    .catch(() => jsm.consumers.info(base.names.orderEventsStream, PANEL_CONSUMER));
  const consumer = await jetstream(base.nc).consumers.get(base.names.orderEventsStream, PANEL_CONSUMER);
  let chain = Promise.resolve();
  const messages: ConsumerMessages = await consumer.consume({
    max_messages: 100,
    callback: (msg) => {
      chain = chain.then(async () => {
        let m: OrderEventMessage | null = null;
        try {
          m = read(msg.json());
        } catch {}
        if (!m) return msg.term('unreadable order event');
        try {
          await db.recordOrderEvent({
            orderId: m.envelope.orderId,
            merchantId: m.merchantId,
            eventType: m.envelope.eventType,
            orderSeq: m.orderSeq,
            at: new Date(m.envelope.createdAt),
          });
          msg.ack();
        } catch (err) {
          base.log.warn({ err, seq: msg.seq }, 'board projection write failed; redelivered later');
          msg.nak(1000);
        }
      });
    },
  });

  return {
    listen(merchantId, fn) {
      let set = listeners.get(merchantId);
      if (!set) listeners.set(merchantId, (set = new Set()));
      set.add(fn);
      return () => {
        set.delete(fn);
        if (set.size === 0) listeners.delete(merchantId);
      };
    },
    async stop() {
      sub.unsubscribe();
      await messages.close().catch(() => {});
      await chain.catch(() => {});
    },
  };
}
