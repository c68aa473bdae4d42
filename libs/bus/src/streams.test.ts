import { DiscardPolicy, type JetStreamManager, jetstreamManager, StorageType } from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { loadConfig } from '@od/config';
import { names } from '@od/contracts';
import { cleanupNats, currentInfra, uniquePrefix } from '@od/testing';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reconcileOrderEventStream, streamSettings } from './streams.ts';

const HOUR_NS = 3_600_000 * 1_000_000;

describe('order-event stream settings', () => {
  const prefix = uniquePrefix();
  const n = names(prefix);
  let nc: NatsConnection;
  let jsm: JetStreamManager;
  beforeAll(async () => {
    nc = await connect({ servers: currentInfra().natsUrl });
    jsm = await jetstreamManager(nc);
  });
  afterAll(async () => {
    await nc?.close();
    await cleanupNats(currentInfra().natsUrl, prefix);
  });

  it('comes from configuration: defaults 1 replica, 7 days, 1 GiB, 2 h duplicate window', () => {
    const s = streamSettings(loadConfig({}, () => {}));
    expect(s).toEqual({
      replicas: 1,
      maxAgeMs: 168 * 3_600_000,
      maxBytes: 1_073_741_824,
      duplicateWindowMs: 7_200_000,
    });
    const deploy = loadConfig(
      { ORDER_EVENTS_REPLICAS: '3', ORDER_EVENTS_MAX_BYTES: '10737418240' },
      () => {},
    );
    expect(streamSettings(deploy)).toMatchObject({ replicas: 3, maxBytes: 10_737_418_240 });
  });

  it('creates the stream with file storage, explicit limits and discard-new', async () => {
    const s = { replicas: 1, maxAgeMs: 48 * 3_600_000, maxBytes: 64 << 20, duplicateWindowMs: 600_000 };
    expect(await reconcileOrderEventStream(jsm, n, s)).toEqual({ action: 'created' });
    const { config } = await jsm.streams.info(n.orderEventsStream);
    expect(config).toMatchObject({
      storage: StorageType.File,
      num_replicas: 1,
      max_age: 48 * HOUR_NS,
      max_bytes: 64 << 20,
      discard: DiscardPolicy.New,
      duplicate_window: 600_000 * 1_000_000,
      subjects: [n.orderEventSubjects],
    });
    expect(await reconcileOrderEventStream(jsm, n, s)).toEqual({ action: 'unchanged' });
  });

  it('updates a live stream in place when the settings change, keeping its messages', async () => {
    await nc.publish(n.orderEventSubject('00000000-0000-4000-8000-000000000001'), '{}');
    await nc.flush();
    const before = await jsm.streams.info(n.orderEventsStream);
    const s = { replicas: 1, maxAgeMs: 24 * 3_600_000, maxBytes: 32 << 20, duplicateWindowMs: 60_000 };
    const r = await reconcileOrderEventStream(jsm, n, s);
    expect(r).toEqual({ action: 'updated', changed: ['max_age', 'max_bytes', 'duplicate_window'] });
    const after = await jsm.streams.info(n.orderEventsStream);
    expect(after.config).toMatchObject({ max_age: 24 * HOUR_NS, max_bytes: 32 << 20 });
    expect(after.created).toBe(before.created);
    expect(after.state.messages).toBe(before.state.messages);
  });

  it('refuses to start when the server cannot hold the configured replicas', async () => {
    const s = { replicas: 3, maxAgeMs: 24 * 3_600_000, maxBytes: 32 << 20, duplicateWindowMs: 60_000 };
    await expect(reconcileOrderEventStream(jsm, n, s)).rejects.toThrow(/replica|cluster/i);
  });

  it('logs, and keeps, a setting that cannot change in place (storage)', async () => {
    const other = names(uniquePrefix());
    const s = { replicas: 1, maxAgeMs: 3_600_000, maxBytes: 1 << 20, duplicateWindowMs: 60_000 };
    await jsm.streams.add({
      name: other.orderEventsStream,
      subjects: [other.orderEventSubjects],
      storage: StorageType.Memory,
    });
    const lines: string[] = [];
    const log = pino({ level: 'error' }, { write: (l: string) => lines.push(l) });
    try {
      const r = await reconcileOrderEventStream(jsm, other, s, log);
      expect(r).toMatchObject({ action: 'updated' });
      expect((await jsm.streams.info(other.orderEventsStream)).config.storage).toBe(StorageType.Memory);
      expect(lines.join('')).toContain('cannot change in place');
    } finally {
      await jsm.streams.delete(other.orderEventsStream);
    }
  });

  it('refuses a duplicate window longer than the max age', async () => {
    const s = { replicas: 1, maxAgeMs: 60_000, maxBytes: 1 << 20, duplicateWindowMs: 120_000 };
    await expect(reconcileOrderEventStream(jsm, n, s)).rejects.toThrow(/duplicate window/);
  });
});
