import { OdApiError, OdAuthError } from './errors.ts';
import { backoffMs, sleep } from './retry.ts';
import type { EventEnvelope, Order, Profile } from './types.ts';

/** What the loop uses of the client (structural, so this file does not import client.ts, which uses it). */
export interface ConsumeSource<P extends Profile> {
  events: {
    poll(query: { limit: number }, options: { signal: AbortSignal }): Promise<unknown>;
    ack(eventIds: string[]): Promise<unknown>;
  };
  orders: { get(orderId: string, options: { signal: AbortSignal }): Promise<Order<P>> };
}

/** What the handler gets besides the event. */
export interface ConsumeContext<P extends Profile> {
  /** fetches the event's order (`GET` at its id, same token); call it only if you need it */
  order(): Promise<Order<P>>;
  /** aborts when the consumer is stopped */
  signal: AbortSignal;
}

/** Handles one event; resolve to have it acknowledged, throw to have it come back on a later poll. */
export type ConsumeHandler<P extends Profile> = (
  event: EventEnvelope<P>,
  context: ConsumeContext<P>,
) => Promise<void> | void;

export interface ConsumeOptions {
  /** stops the loop (the promise then resolves with the counts) */
  signal?: AbortSignal;
  /** events per poll (default 100, the API allows 1..200) */
  limit?: number;
  /** wait after an empty poll: starts at `minMs` (default 1 s), doubles up to `maxMs` (default 30 s) */
  idle?: { minMs?: number; maxMs?: number };
  /** after a failure (handler or API): full-jitter backoff from `baseMs` (default 1 s) to `maxMs` (default 60 s) */
  failure?: { baseMs?: number; maxMs?: number };
  /** how many handled `eventId`s to remember for deduplication (default 10 000; oldest forgotten first) */
  dedupeSize?: number;
  /** a handler failure or a transient API failure (the loop goes on); log it */
  onError?: (error: unknown, event?: { eventId: string }) => void;
}

export interface ConsumeStats {
  polls: number;
  handled: number;
  /** events seen again after being handled (their acknowledgment had been lost): acknowledged, not handled */
  duplicates: number;
  acknowledged: number;
  failures: number;
}

/**
 * The consumer loop (see `EventsApi.consume`). At-least-once: an event is acknowledged only after
 * its handler resolved; a failing handler leaves it, and the rest of its batch, for a later poll
 * (later events of an order may depend on it). Stops on 401/403 (credential paused, revoked, or
 * missing scope: a person must act) by rejecting with the {@link OdAuthError}.
 */
export async function consume<P extends Profile>(
  client: ConsumeSource<P>,
  handler: ConsumeHandler<P>,
  o: ConsumeOptions,
): Promise<ConsumeStats> {
  const signal = o.signal ?? new AbortController().signal;
  const stats: ConsumeStats = { polls: 0, handled: 0, duplicates: 0, acknowledged: 0, failures: 0 };
  const seen = new Set<string>();
  const remember = (id: string) => {
    seen.add(id);
    if (seen.size > (o.dedupeSize ?? 10_000)) seen.delete(seen.values().next().value as string);
  };
  const idleMin = o.idle?.minMs ?? 1000;
  const idleMax = o.idle?.maxMs ?? 30_000;
  const failure = { baseMs: o.failure?.baseMs ?? 1000, maxMs: o.failure?.maxMs ?? 60_000 };
  let idle = idleMin;
  let failures = 0;
  const pause = async (ms: number) => {
    try {
      await sleep(ms, signal);
    } catch {
      // aborted: the loop condition ends it
    }
  };

  while (!signal.aborted) {
    let failed = false;
    try {
      const events = (await client.events.poll(
        { limit: o.limit ?? 100 },
        { signal },
      )) as (EventEnvelope<P> & {
        eventId: string;
        orderId: string;
      })[];
      stats.polls++;
      const done: string[] = [];
      for (const event of events) {
        if (signal.aborted) break;
        if (seen.has(event.eventId)) {
          stats.duplicates++;
          done.push(event.eventId);
          continue;
        }
        try {
          await handler(event, { order: () => client.orders.get(event.orderId, { signal }), signal });
        } catch (e) {
          if (e instanceof OdAuthError) throw e;
          failed = true;
          stats.failures++;
          o.onError?.(e, event);
          break;
        }
        stats.handled++;
        remember(event.eventId);
        done.push(event.eventId);
      }
      if (done.length) {
        // not cut by the stop signal: what was handled is acknowledged even when stopping
        const r = (await client.events.ack(done)) as { acknowledged?: number } | undefined;
        stats.acknowledged += typeof r?.acknowledged === 'number' ? r.acknowledged : done.length;
      }
      if (failed) {
        await pause(backoffMs(failures++, failure));
      } else if (events.length === 0) {
        await pause(idle);
        idle = Math.min(idle * 2, idleMax);
      } else {
        idle = idleMin;
        failures = 0;
      }
    } catch (e) {
      if (signal.aborted) break;
      if (e instanceof OdAuthError) throw e;
      // a request the API refused for good (400, 404...): looping would repeat it forever
      if (e instanceof OdApiError && e.status < 500 && e.status !== 429) throw e;
      stats.failures++;
      o.onError?.(e);
      await pause(backoffMs(failures++, failure));
    }
  }
  return stats;
}
