import { randomUUID } from 'node:crypto';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { names } from '@od/contracts';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEmptyPolls, type EmptyPolls } from './empty-polls.ts';

/** The gateway's memory of empty feeds, against real NATS announcements. */
describe('empty polls', () => {
  let nc: NatsConnection;
  let polls: EmptyPolls;
  let clock = 0;
  const n = names(`ep${randomUUID().slice(0, 8)}`);
  const store = randomUUID();
  const other = randomUUID();
  // an announcement is delivered once a round trip to the server after it completed
  const announce = async (payload: string) => {
    nc.publish(n.feedPending, payload);
    await nc.flush();
  };

  beforeAll(async () => {
    nc = await connect({ servers: process.env.NATS_URL ?? 'nats://127.0.0.1:4222' });
    polls = createEmptyPolls(nc, n, pino({ level: 'silent' }), { ttlMs: 1000, now: () => clock });
    await nc.flush();
  });
  afterAll(async () => {
    polls?.stop();
    await nc?.close();
  });

  it('remembers an empty answer until its store is announced (ids in any case)', async () => {
    polls.remember('c1', store, polls.generation(store));
    polls.remember('c2', other, polls.generation(other));
    expect(polls.isEmpty('c1', store)).toBe(true);
    await announce(`${randomUUID()},${store.toUpperCase()}`);
    expect(polls.isEmpty('c1', store)).toBe(false);
    expect(polls.isEmpty('c2', other)).toBe(true);
  });

  it('never remembers an answer that raced an announcement of its store', async () => {
    const before = polls.generation(store);
    await announce(store);
    polls.remember('c3', store, before);
    expect(polls.isEmpty('c3', store)).toBe(false);
  });

  it('forgets everything on an announcement without stores, and after its TTL', async () => {
    polls.remember('c4', store, polls.generation(store));
    polls.remember('c5', other, polls.generation(other));
    await announce('');
    expect(polls.isEmpty('c4', store)).toBe(false);
    expect(polls.isEmpty('c5', other)).toBe(false);
    polls.remember('c6', store, polls.generation(store));
    clock += 999;
    expect(polls.isEmpty('c6', store)).toBe(true);
    clock += 2;
    expect(polls.isEmpty('c6', store)).toBe(false);
  });

  it('a credential moved to another store is not answered from its old store', () => {
    polls.remember('c7', store, polls.generation(store));
    expect(polls.isEmpty('c7', other)).toBe(false);
  });
});
