import type { NatsConnection } from '@nats-io/transport-node';
import type { Names } from '@od/contracts';
import type { Logger } from '@od/logger';

/** Announces stores whose feeds may hold new pollable entries; `'all'` = every store. */
export type AnnouncePending = (stores: Iterable<string> | 'all') => void;

/**
 * The feed's side of the gateways' empty-poll cache (services/gateway/src/routes/empty-polls.ts):
 * called after every commit that can make an entry pollable (fan-out, release of held events,
 * backfill), before the stream messages are acknowledged, so a crash between the commit and the
 * announcement means a redelivery and a new announcement. Core NATS, fire and forget: a lost
 * announcement costs a delay bounded by the cache's TTL, never an event.
 */
export function pendingAnnouncer(
  nc: NatsConnection,
  n: Pick<Names, 'feedPending'>,
  log: Logger,
): AnnouncePending {
  return (stores) => {
    const payload = stores === 'all' ? '' : [...new Set(stores)].join(',');
    if (stores !== 'all' && !payload) return;
    try {
      nc.publish(n.feedPending, payload);
    } catch (err) {
      log.warn({ err }, 'feed pending signal not published (gateways catch up within their TTL)');
    }
  };
}
