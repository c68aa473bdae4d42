import { jetstream } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import { ensureOrderEventStream } from '@od/bus';
import type { Names } from '@od/contracts';
import type { Logger } from '@od/logger';
import pg from 'pg';
import { OUTBOX_CHANNEL } from '../db/orders.ts';

/**
 * The outbox relay. Exactly one leader among all replicas: the holder of a PostgreSQL advisory lock
 * taken on a dedicated connection (it dies with the process, so a standby takes over within one
 * sweep interval). The leader reads unpublished rows in id order, publishes them to JetStream
 * (msgID = eventId: a re-publish after a crash is deduplicated by the stream) and marks them sent.
 * Per order, events are published one after another in outbox order (awaiting each ack); different
 * orders go in parallel. The leader is woken in-process right after a commit (`wake()`), by
 * NOTIFY from other replicas' commits, and by a slow sweep as safety net.
 */
export interface Relay {
  wake(): void;
  isLeader(): boolean;
  stop(): Promise<void>;
}

const LOCK_KEY = 'orders:outbox-relay';
const BATCH = 500;
/** Published rows are pruned after a day (JetStream's duplicate window is 2 h); history is kept. */
const PRUNE_EVERY_MS = 10 * 60_000;

export async function startRelay(opts: {
  databaseUrl: string;
  schema: string;
  nc: NatsConnection;
  names: Names;
  log: Logger;
  sweepMs?: number;
}): Promise<Relay> {
  const sweepMs = opts.sweepMs ?? 1000;
  await ensureOrderEventStream(opts.nc, opts.names);
  const js = jetstream(opts.nc);
  let running = true;
  let leader = false;
  let client: pg.Client | undefined;
  let pendingWake = false;
  let wakeUp: (() => void) | undefined;

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

  const dropClient = async () => {
    leader = false;
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
    for (;;) {
      pendingWake = false;
      const { rows } = await c.query<{
        id: number;
        order_id: string;
        merchant_id: string;
        event_id: string;
        message: string;
      }>(
        `SELECT id, order_id, merchant_id, event_id, message FROM order_outbox
         WHERE published_at IS NULL ORDER BY id LIMIT ${BATCH}`,
      );
      if (rows.length === 0) return true;
      const chains = new Map<string, typeof rows>();
      for (const r of rows) {
        const chain = chains.get(r.order_id);
        if (chain) chain.push(r);
        else chains.set(r.order_id, [r]);
      }
      const done: number[] = [];
      let failed = false;
      await Promise.all(
        [...chains.values()].map(async (chain) => {
          for (const r of chain) {
            try {
              await js.publish(opts.names.orderEventSubject(r.merchant_id), r.message, { msgID: r.event_id });
              done.push(r.id);
            } catch (err) {
              failed = true;
              opts.log.warn({ err: (err as Error).message, eventId: r.event_id }, 'outbox publish failed');
              return; // later events of this order wait: never out of order
            }
          }
        }),
      );
      if (done.length)
        await c.query('UPDATE order_outbox SET published_at = now() WHERE id = ANY($1::bigint[])', [done]);
      if (failed) return false;
      if (rows.length < BATCH && !pendingWake) return true;
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
          await c.query("DELETE FROM order_outbox WHERE published_at < now() - interval '1 day'");
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
    isLeader: () => leader,
    async stop() {
      running = false;
      wakeUp?.();
      await loop.catch(() => {});
      await dropClient();
    },
  };
}
