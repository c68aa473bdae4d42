/**
 * Size limits of what the orders service stores and publishes (README "Limits"). The bus carries at
 * most 1 MiB per message (NATS max_payload, checked at start): an order's document travels whole in
 * the GET and intake replies, an outbox message whole to JetStream.
 */

/** Largest public Order document (JSON bytes); a larger intake or edit answers 413. */
export const MAX_ORDER_DOCUMENT_BYTES = 900 * 1024;

/** Largest outbox message (OrderEventMessage JSON bytes); a larger event cannot be created (413). */
export const MAX_EVENT_BYTES = 64 * 1024;

/** Room the RPC reply needs around a document (situation, channel, headers). */
export const REPLY_OVERHEAD_BYTES = 16 * 1024;

export const byteLength = (s: string): number => Buffer.byteLength(s, 'utf8');

/**
 * The admin order view (document + situation + history) must cross the bus too: it carries the
 * history a page at a time, at most this many entries and as many bytes as the document leaves.
 */
export const HISTORY_PAGE_MAX_ENTRIES = 200;
export const ADMIN_VIEW_MAX_BYTES = 960 * 1024;

/**
 * How many entries (JSON sizes in order) one history page takes: at most `maxEntries`, within
 * `budget` bytes (each plus a separator), and always at least one (an entry is bounded far below).
 */
export function historyPageLength(sizes: readonly number[], budget: number, maxEntries: number): number {
  let used = 0;
  let n = 0;
  for (const size of sizes) {
    if (n >= maxEntries || (n > 0 && used + size + 1 > budget)) break;
    used += size + 1;
    n++;
  }
  return n;
}

/**
 * Open Delivery `tracking` updates kept in an order's history: the newest this many; each new one
 * beyond drops the oldest (a point of sale reporting every 30 s fills it in under an hour of
 * delivery). Other history entries are never dropped.
 */
export const MAX_TRACKING_ENTRIES = 100;
