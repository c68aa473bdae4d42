import type { ServiceBase } from '@od/runtime';
import type { Redis } from 'ioredis';

/** Open live streams (the orders SSE) per session on one replica; the next one closes the oldest. */
export const STREAMS_PER_SESSION = 4;

/**
 * Whose streams must close now: one session (sign-out), every session of a user (sign-out
 * everywhere, new password), or a user's streams of one store (removed from it).
 */
export type Revocation = { sessionId: string } | { userId: string; merchantId?: string };

interface OpenStream {
  sessionId: string;
  userId: string;
  merchantId: string;
  close: () => void;
}

export interface LiveStreams {
  /** registers an open stream (closing the session's oldest beyond the cap); returns its unregister */
  open(s: OpenStream): () => void;
  /** closes the revoked streams on every replica (Redis pub/sub); never throws */
  revoke(r: Revocation): Promise<void>;
  stop(): Promise<void>;
}

const matches = (s: OpenStream, r: Revocation) =>
  'sessionId' in r
    ? s.sessionId === r.sessionId
    : s.userId === r.userId && (r.merchantId === undefined || s.merchantId === r.merchantId);

/**
 * The live streams of this replica, closed when authorization ends on any replica: each revocation
 * is published on a Redis channel every panel replica subscribes to (its own included), so the
 * replica holding the stream closes it at once. The stream itself re-checks its session and
 * membership on each heartbeat (orders.ts), the bound when a message is lost (Redis down).
 */
export function startLiveStreams(redis: Redis, channel: string, log: ServiceBase['log']): LiveStreams {
  const streams = new Set<OpenStream>();
  const closeMatching = (r: Revocation) => {
    for (const s of [...streams]) if (matches(s, r)) s.close();
  };
  const sub = redis.duplicate({ enableOfflineQueue: true });
  sub.on('error', (err) => log.warn({ err: err.message }, 'redis (stream revocations) error'));
  sub.on('message', (_channel, message) => {
    try {
      closeMatching(JSON.parse(message) as Revocation);
    } catch (err) {
      log.warn({ err }, 'unreadable stream revocation');
    }
  });
  // not awaited: a panel starts without Redis (ioredis subscribes again at every reconnect)
  sub
    .subscribe(channel)
    .catch((err) => log.warn({ err: err.message }, 'stream revocations: subscribe failed'));

  return {
    open(s) {
      const mine = [...streams].filter((o) => o.sessionId === s.sessionId);
      // Set iteration is insertion order: the first ones are the oldest
      for (const old of mine.slice(0, Math.max(0, mine.length - STREAMS_PER_SESSION + 1))) old.close();
      streams.add(s);
      return () => streams.delete(s);
    },
    async revoke(r) {
      // this replica at once, whatever Redis does; the others through the channel
      closeMatching(r);
      await redis.publish(channel, JSON.stringify(r)).catch((err) => {
        log.warn(
          { err: err.message },
          'stream revocation not published: other replicas close at their next check',
        );
      });
    },
    async stop() {
      for (const s of [...streams]) s.close();
      sub.disconnect();
    },
  };
}
