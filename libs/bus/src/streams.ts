import { type JetStreamManager, jetstreamManager, RetentionPolicy, StorageType } from '@nats-io/jetstream';
import { type KV, Kvm } from '@nats-io/kv';
import type { NatsConnection } from '@nats-io/transport-node';
import type { Names } from '@od/contracts';

/** Idempotent: creates the order-event stream if missing. Dedup window covers outbox re-publishes. */
export async function ensureOrderEventStream(nc: NatsConnection, n: Names): Promise<JetStreamManager> {
  const jsm = await jetstreamManager(nc);
  try {
    await jsm.streams.info(n.orderEventsStream);
  } catch {
    try {
      await jsm.streams.add({
        name: n.orderEventsStream,
        subjects: [n.orderEventSubjects],
        retention: RetentionPolicy.Limits,
        storage: StorageType.File,
        max_age: 0,
        duplicate_window: 2 * 60 * 60 * 1_000_000_000, // 2 h in ns
      });
    } catch (e) {
      // another replica created it first
      await jsm.streams.info(n.orderEventsStream).catch(() => {
        throw e;
      });
    }
  }
  return jsm;
}

export async function openCredentialsKv(nc: NatsConnection, n: Names): Promise<KV> {
  return new Kvm(nc).create(n.credentialsBucket, { history: 1 });
}
