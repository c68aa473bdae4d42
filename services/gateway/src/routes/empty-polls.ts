import type { NatsConnection, Subscription } from '@nats-io/transport-node';
import type { Names } from '@od/contracts';
import type { Logger } from '@od/logger';

/**
 * Longest time a credential's empty feed is taken for granted without asking the feed. The feed
 * announces every write that can make an entry pollable (feed-pending.ts), so this only bounds the
 * cost of a signal that never came: a feed replica of a release without the signal during a
 * rolling deploy, or a bug.
 */
export const EMPTY_POLL_TTL_MS = 60_000;
/** Credentials and stores remembered; over it everything is forgotten at once (memory bound). */
export const EMPTY_POLL_MAX_ENTRIES = 200_000;

/**
 * The empty-poll fast path: a credential whose last poll answered `[]` is answered `[]` by the
 * gateway itself (no bus, no PostgreSQL) until the feed announces new pollable entries for its store
 * on `names.feedPending`. A poll that races such an announcement is never remembered as empty: the
 * store's generation is read before the request to the feed and must be unchanged when its empty
 * answer arrives. The feed announces only after its transaction committed, so a poll either saw the
 * entry or its answer arrives after a generation change. Any doubt (disconnected, reconnected, a
 * subscription error, an announcement for every store) forgets everything.
 */
export interface EmptyPolls {
  /** the generation of a store, to pass to `remember` after asking the feed */
  generation(merchantId: string): number;
  /** true when the credential's feed is known to be empty */
  isEmpty(clientId: string, merchantId: string): boolean;
  /** the feed answered `[]` to a poll sent at `generation` */
  remember(clientId: string, merchantId: string, generation: number): void;
  stop(): void;
}

interface Entry {
  merchantId: string;
  generation: number;
  until: number;
}

export function createEmptyPolls(
  nc: NatsConnection,
  n: Pick<Names, 'feedPending'>,
  log: Logger,
  opts: { ttlMs?: number; now?: () => number } = {},
): EmptyPolls {
  const ttl = opts.ttlMs ?? EMPTY_POLL_TTL_MS;
  const now = opts.now ?? Date.now;
  let tick = 1;
  /** generation below which every entry is stale */
  let epoch = tick;
  const stores = new Map<string, number>();
  const entries = new Map<string, Entry>();
  let connected = true;
  const forgetAll = () => {
    epoch = ++tick;
    stores.clear();
    entries.clear();
  };
  const generation = (merchantId: string) => Math.max(epoch, stores.get(merchantId) ?? 0);

  const sub: Subscription = nc.subscribe(n.feedPending, {
    callback: (err, msg) => {
      if (err) {
        log.warn({ err: err.message }, 'feed pending signal: subscription error, empty polls forgotten');
        return forgetAll();
      }
      const text = msg.string();
      if (!text) return forgetAll();
      if (stores.size >= EMPTY_POLL_MAX_ENTRIES) forgetAll();
      for (const m of text.split(',')) stores.set(m.toLowerCase(), ++tick);
    },
  });
  // an announcement may be lost while disconnected: no fast path until reconnected, then start over
  void (async () => {
    for await (const s of nc.status()) {
      if (s.type === 'disconnect') connected = false;
      if (s.type === 'reconnect') connected = true;
      if (s.type === 'disconnect' || s.type === 'reconnect' || s.type === 'slowConsumer') forgetAll();
    }
  })().catch(() => {});

  return {
    generation: (merchantId) => generation(merchantId.toLowerCase()),
    isEmpty(clientId, merchantId) {
      const e = entries.get(clientId);
      if (!e || !connected || sub.isClosed()) return false;
      if (
        e.generation !== generation(e.merchantId) ||
        e.merchantId !== merchantId.toLowerCase() ||
        e.until < now()
      ) {
        entries.delete(clientId);
        return false;
      }
      return true;
    },
    remember(clientId, merchantId, g) {
      const m = merchantId.toLowerCase();
      if (!connected || g !== generation(m)) return;
      if (entries.size >= EMPTY_POLL_MAX_ENTRIES) forgetAll();
      entries.set(clientId, { merchantId: m, generation: g, until: now() + ttl });
    },
    stop() {
      sub.unsubscribe();
      forgetAll();
    },
  };
}
