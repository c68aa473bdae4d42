import type { NatsConnection } from '@nats-io/transport-node';

/**
 * Publishes of one event-loop turn leave in one socket write. nats.js flushes its outbound buffer
 * in a microtask after the first publish, so publishes made by different I/O callbacks of the same
 * turn (replies whose queries finished together, requests whose limiter answers arrived together)
 * each cost a `write` (on loopback the sender's write also runs the receiver's TCP path, and
 * nats-server reads and wakes once per write). Deferred to the turn's check phase (`setImmediate`),
 * they are published back to back and nats.js sends them in one write. Order per connection is
 * kept; nothing is dropped: each `send` runs exactly once, in the order queued.
 */
const queues = new WeakMap<NatsConnection, (() => void)[]>();

export function publishSoon(nc: NatsConnection, send: () => void): void {
  let q = queues.get(nc);
  if (!q) {
    q = [];
    queues.set(nc, q);
  }
  q.push(send);
  if (q.length === 1) setImmediate(flush, q);
}

function flush(q: (() => void)[]): void {
  // a send queued while flushing (none does: each only publishes) waits for the next turn
  const sends = q.splice(0);
  for (const send of sends) send();
}
