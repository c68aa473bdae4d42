import type { Subscription } from '@nats-io/transport-node';
import {
  ensureOrderEventStream,
  ORDER_EVENT_CONSUMERS,
  parseOrderEvent,
  startEventConsumer,
  streamSettings,
} from '@od/bus';
import type { BoardEvent, OrderCard } from '@od/contracts';
import type { ServiceBase } from '@od/runtime';
import type { PanelDb } from './db/panel-db.ts';

type Listener = (e: BoardEvent) => void;

export const PANEL_CONSUMER = ORDER_EVENT_CONSUMERS.panel;

/**
 * The board lists orders touched in the last 24 h: the projection's consumer never needs an older
 * event (a new consumer starts at now - 24 h, never at the stream's beginning).
 */
export const BOARD_WINDOW_MS = 24 * 60 * 60 * 1000;

export interface LiveOrders {
  /** registers a board of `merchantId`; returns the unsubscribe function */
  listen(merchantId: string, fn: Listener): () => void;
  stop(): Promise<void>;
}

/**
 * Two readers of the order-event stream (why two: services/panel/README.md, "Orders board"):
 * - live push: a core NATS subscription on every replica hands each event to the open boards of
 *   its store at once; nothing is stored, acknowledged or replayed (a board that missed events
 *   while disconnected reloads its list on reconnect);
 * - projection: @od/bus's `startEventConsumer` (durable `panel`, shared by the replicas, batches
 *   stored before they are acknowledged, poison messages set aside in `set_aside_events`) keeps
 *   `store_orders`, the list the previous release's boards load (this release's board pages orders'
 *   `cards`): kept up to date for one release so a rolling deploy's old replicas miss nothing, then
 *   removed with its table (expand/contract).
 */
export async function startLiveOrders(
  base: ServiceBase,
  db: PanelDb,
  loadCard: (merchantId: string, orderId: string) => Promise<OrderCard | null>,
): Promise<LiveOrders> {
  const listeners = new Map<string, Set<Listener>>();
  // per store, events are pushed in arrival order even though each waits for its card
  const pushing = new Map<string, Promise<void>>();
  const sub: Subscription = base.nc.subscribe(base.names.orderEventSubjects, {
    callback: (err, msg) => {
      if (err) return;
      const e = parseOrderEvent(msg.data);
      if ('error' in e || !listeners.has(e.merchantId)) return;
      const card = loadCard(e.merchantId, e.orderId);
      const next = (pushing.get(e.merchantId) ?? Promise.resolve()).then(async () => {
        const event = {
          orderId: e.orderId,
          eventType: e.eventType,
          createdAt: e.createdAt,
          card: await card,
        };
        for (const fn of listeners.get(e.merchantId) ?? []) fn(event);
      });
      pushing.set(e.merchantId, next);
      void next.finally(() => {
        if (pushing.get(e.merchantId) === next) pushing.delete(e.merchantId);
      });
    },
  });

  const projection = await startEventConsumer({
    nc: base.nc,
    jsm: await ensureOrderEventStream(base.nc, base.names, streamSettings(base.config), base.log),
    names: base.names,
    log: base.log,
    pool: base.pool,
    durable: PANEL_CONSUMER,
    maxEventAgeMs: BOARD_WINDOW_MS,
    ackWaitMs: 10_000,
    store: (events) => db.recordOrderEvents(events),
  });
  // readiness waits for it; its lag and counters are od_consumer_*{consumer="panel"}
  base.attached(PANEL_CONSUMER);

  return {
    listen(merchantId, fn) {
      const id = merchantId.toLowerCase();
      let set = listeners.get(id);
      if (!set) listeners.set(id, (set = new Set()));
      set.add(fn);
      return () => {
        set.delete(fn);
        if (set.size === 0) listeners.delete(id);
      };
    },
    async stop() {
      sub.unsubscribe();
      await projection.stop();
    },
  };
}
