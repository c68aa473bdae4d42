import { jetstream } from '@nats-io/jetstream';
import { type NatsConnection, headers as natsHeaders } from '@nats-io/transport-node';
import { ensureOrderEventStream, type OrderEventStreamSettings } from '@od/bus';
import type { Names } from '@od/contracts';
import type { Logger } from '@od/logger';
import { outboxPublish } from '@od/telemetry';
import pg from 'pg';
import { pruneIdem } from '../db/idempotency.ts';
import { OUTBOX_CHANNEL } from '../db/orders.ts';
import { pruneOutbox, setAside } from '../db/outbox.ts';

/**
 * The outbox relay. Exactly one leader among all replicas: the holder of a PostgreSQL advisory lock
 * taken on a dedicated connection (it dies with the process, so a standby takes over within one
 * sweep interval). The leader reads unpublished rows in id order, publishes them to JetStream
 * (msgID = eventId: a re-publish after a crash is deduplicated by the stream) and marks them sent.
 * Per order, events are published one after another in outbox order (awaiting each ack); different
 * orders go in parallel. The leader is woken in-process right after a commit (`wake()`), by
 * NOTIFY from other replicas' commits, and by a slow sweep as safety net.
 *
 * Fast path (`publishNow`): the leader's own write path hands over a committed row whose order had
 * no unpublished event when it was written (db/orders.ts `alone`, read under the order's lock), and
 * the row is published at once, without waiting for a round's read: nothing of its order can be
 * overtaken. The row stays the relay's: a round that reads it while that publish is in flight
 * waits for it (its order's later rows behind it) and publishes it itself if it failed; once acked,
 * the next round's statement marks it. A re-publish (a round that read it just before the hand-over,
 * a crash before the mark) is deduplicated by the stream like any other.
 *
 * Poison rows: when a row fails to publish while JetStream answers (other rows went through, or the
 * stream answers a probe), its `attempts` grows; at MAX_PUBLISH_ATTEMPTS it is set aside
 * (`set_aside_at`, `last_error`), logged at error level and counted, and the rows behind it go on
 * (later events of that order included). Set-aside rows are never pruned; clearing `set_aside_at`
 * re-queues one. A failure while JetStream does not answer at all is an outage: nothing is counted.
 * Pruning: published rows older than max(ORDER_OUTBOX_RETENTION, the stream's duplicate window).
 */
export interface Relay {
  wake(): void;
  /** publishes a row committed just now whose order had no unpublished event (see above) */
  publishNow(row: OutboxRow): void;
  isLeader(): boolean;
  stats(): RelayStats;
  stop(): Promise<void>;
}

export interface RelayStats {
  published: number;
  /** of which published at once after their commit (`publishNow`) */
  publishedAtOnce: number;
  /** publish failures counted against a row (JetStream answering) */
  failures: number;
  setAside: number;
}

const LOCK_KEY = 'orders:outbox-relay';
const BATCH = 500;
export const MAX_PUBLISH_ATTEMPTS = 5;
const PRUNE_EVERY_MS = 10 * 60_000;

export interface OutboxRow {
  id: number;
  order_id: string;
  merchant_id: string;
  event_id: string;
  message: string;
  created_at: string;
  traceparent: string | null;
}

// Marks the previous round's rows published and reads the next round in one round trip (the
// SELECT sees the snapshot from before the UPDATE, hence the explicit exclusion).
const MARK_AND_NEXT_SQL = `WITH marked AS (
  UPDATE order_outbox SET published_at = now() WHERE id = ANY($1::bigint[])
)
SELECT id, order_id, merchant_id, event_id, message, created_at, traceparent FROM order_outbox
WHERE published_at IS NULL AND set_aside_at IS NULL AND NOT (id = ANY($1::bigint[]))
ORDER BY id LIMIT ${BATCH}`;

export async function startRelay(opts: {
  databaseUrl: string;
  schema: string;
  nc: NatsConnection;
  names: Names;
  stream: OrderEventStreamSettings;
  log: Logger;
  /** ORDER_OUTBOX_RETENTION (ms) */
  retentionMs: number;
  sweepMs?: number;
}): Promise<Relay> {
  const sweepMs = opts.sweepMs ?? 1000;
  const jsm = await ensureOrderEventStream(opts.nc, opts.names, opts.stream, opts.log);
  const duplicateWindowMs = Math.ceil(
    ((await jsm.streams.info(opts.names.orderEventsStream)).config.duplicate_window ?? 0) / 1e6,
  );
  if (opts.retentionMs < duplicateWindowMs)
    opts.log.warn(
      { retentionMs: opts.retentionMs, duplicateWindowMs },
      'ORDER_OUTBOX_RETENTION is shorter than the stream duplicate window: keeping rows for the window',
    );
  const retentionMs = Math.max(opts.retentionMs, duplicateWindowMs);
  const stats: RelayStats = { published: 0, publishedAtOnce: 0, failures: 0, setAside: 0 };
  const js = jetstream(opts.nc);
  let running = true;
  let leader = false;
  let client: pg.Client | undefined;
  let pendingWake = false;
  let wakeUp: (() => void) | undefined;
  /** fast-path publishes in flight (row id -> acked) and the acked ones the next round marks */
  const fast = new Map<number, Promise<boolean>>();
  let fastDone: number[] = [];

  const wake = () => {
    pendingWake = true;
    wakeUp?.();
  };
  const waitWake = (ms: number) =>
    new Promise<void>((resolve) => {
      if (pendingWake || !running) return resolve();
      const t = setTimeout(done, ms);
      function done() {
        clearTimeout(t);
        wakeUp = undefined;
        resolve();
      }
      wakeUp = done;
    });

  const publishRow = (r: OutboxRow) => {
    const subject = opts.names.orderEventSubject(r.merchant_id);
    return outboxPublish(r, subject, (h) =>
      js.publish(subject, r.message, { msgID: r.event_id, headers: h(natsHeaders) }),
    );
  };
  const publishNow = (r: OutboxRow) => {
    const p = publishRow(r).then(
      () => {
        stats.published++;
        stats.publishedAtOnce++;
        if (leader) fastDone.push(r.id);
        return true;
      },
      // the row is still unpublished: the next round publishes it (and counts a failure there)
      () => false,
    );
    fast.set(r.id, p);
    void p.then(() => {
      fast.delete(r.id);
      wake();
    });
  };

  const dropClient = async () => {
    leader = false;
    fastDone = [];
    const c = client;
    client = undefined;
    if (c) await c.end().catch(() => {});
  };

  async function tryLead(): Promise<boolean> {
    if (!client) {
      const c = new pg.Client({
        connectionString: opts.databaseUrl,
        options: `-c search_path=${opts.schema}`,
        application_name: 'orders-relay',
      });
      c.on('error', (err) => {
        opts.log.warn({ err: err.message }, 'relay connection lost');
        if (client === c) {
          leader = false;
          client = undefined;
          c.end().catch(() => {});
        }
      });
      c.on('notification', () => wake());
      await c.connect();
      // marking rows as published need not wait for fsync: a mark lost in a database crash only
      // means a re-publish, which JetStream deduplicates (msgID = eventId, 2 h window)
      await c.query('SET synchronous_commit TO off');
      client = c;
    }
    const { rows } = await client.query<{ ok: boolean }>('SELECT pg_try_advisory_lock(hashtext($1)) AS ok', [
      LOCK_KEY,
    ]);
    if (!rows[0].ok) return false;
    await client.query(`LISTEN ${OUTBOX_CHANNEL}`);
    opts.log.info('outbox relay: leader');
    return true;
  }

  /** Publishes everything unpublished; returns false when a publish failed (retry later). */
  async function drain(c: pg.Client): Promise<boolean> {
    // rows published by the previous round, marked by the statement that reads the next round
    let published: number[] = [];
    for (;;) {
      pendingWake = false;
      published.push(...fastDone);
      fastDone = [];
      const { rows } = await c.query<OutboxRow>({
        name: 'outbox_mark_and_next',
        text: MARK_AND_NEXT_SQL,
        values: [published],
      });
      published = [];
      if (rows.length === 0) return true;
      const chains = new Map<string, OutboxRow[]>();
      for (const r of rows) {
        const chain = chains.get(r.order_id);
        if (chain) chain.push(r);
        else chains.set(r.order_id, [r]);
      }
      const done: number[] = [];
      const failed: { id: number; eventId: string; orderId: string; error: string }[] = [];
      await Promise.all(
        [...chains.values()].map(async (chain) => {
          for (const r of chain) {
            try {
              const inFlight = fast.get(r.id);
              if (inFlight && (await inFlight)) continue; // acked: marked by the next round
              await publishRow(r);
              done.push(r.id);
            } catch (err) {
              const error = (err as Error).message;
              failed.push({ id: r.id, eventId: r.event_id, orderId: r.order_id, error });
              opts.log.warn({ err: error, eventId: r.event_id }, 'outbox publish failed');
              return; // later events of this order wait: never out of order (unless set aside)
            }
          }
        }),
      );
      stats.published += done.length;
      if (failed.length) {
        if (done.length)
          await c.query('UPDATE order_outbox SET published_at = now() WHERE id = ANY($1::bigint[])', [done]);
        // JetStream answering while these fail: the rows themselves are the problem
        if (done.length || (await streamAnswers())) await countFailures(c, failed);
        return false;
      }
      // one more round even when the batch was short: its statement marks this one, and rows
      // committed meanwhile go out without waiting for a wake
      published = done;
    }
  }

  async function streamAnswers(): Promise<boolean> {
    try {
      await jsm.streams.info(opts.names.orderEventsStream);
      return true;
    } catch {
      return false;
    }
  }

  async function countFailures(
    c: pg.Client,
    failed: { id: number; eventId: string; orderId: string; error: string }[],
  ): Promise<void> {
    for (const f of failed) {
      stats.failures++;
      const aside = await setAside(c, f.id, f.error, MAX_PUBLISH_ATTEMPTS);
      if (aside) {
        stats.setAside++;
        opts.log.error(
          { eventId: f.eventId, orderId: f.orderId, err: f.error, attempts: MAX_PUBLISH_ATTEMPTS },
          'outbox row set aside: it cannot be published (kept in order_outbox, see README)',
        );
      }
    }
  }

  let lastPrune = 0;
  const loop = (async () => {
    while (running) {
      try {
        if (!leader) {
          leader = await tryLead();
          if (!leader) {
            await new Promise((r) => setTimeout(r, sweepMs));
            continue;
          }
        }
        const c = client;
        if (!c) {
          leader = false;
          continue;
        }
        const ok = await drain(c);
        if (Date.now() - lastPrune > PRUNE_EVERY_MS) {
          lastPrune = Date.now();
          await pruneOutbox(c, retentionMs);
          await pruneIdem(c);
        }
        if (!ok) await new Promise((r) => setTimeout(r, 200));
        else await waitWake(sweepMs);
      } catch (err) {
        if (running) opts.log.warn({ err: (err as Error).message }, 'outbox relay error');
        await dropClient();
        if (running) await new Promise((r) => setTimeout(r, Math.min(sweepMs, 500)));
      }
    }
  })();

  return {
    wake,
    publishNow,
    isLeader: () => leader,
    stats: () => ({ ...stats }),
    async stop() {
      running = false;
      wakeUp?.();
      await loop.catch(() => {});
      await Promise.all(fast.values());
      await dropClient();
    },
  };
}
