import {
  DiscardPolicy,
  type JetStreamManager,
  jetstreamManager,
  RetentionPolicy,
  StorageType,
  type StreamConfig,
} from '@nats-io/jetstream';
import { type KV, Kvm } from '@nats-io/kv';
import type { NatsConnection } from '@nats-io/transport-node';
import type { Names } from '@od/contracts';
import type { Logger } from '@od/logger';

const NS_PER_MS = 1_000_000;

/** The order-event stream's limits, from configuration (docs/event-stream.md explains each choice). */
export interface OrderEventStreamSettings {
  /** 1 locally (one NATS server), 3 in deploy/ (a JetStream cluster of at least 3) */
  replicas: number;
  maxAgeMs: number;
  maxBytes: number;
  /** re-publishes of one event id inside this window are dropped by the stream (outbox relay retries) */
  duplicateWindowMs: number;
}

/** The environment variables of `@od/config` that set the stream (structural: no config import). */
export interface StreamEnv {
  ORDER_EVENTS_REPLICAS: number;
  ORDER_EVENTS_MAX_AGE_HOURS: number;
  ORDER_EVENTS_MAX_BYTES: number;
  ORDER_EVENTS_DUPLICATE_WINDOW_SECONDS: number;
}

export function streamSettings(env: StreamEnv): OrderEventStreamSettings {
  return {
    replicas: env.ORDER_EVENTS_REPLICAS,
    maxAgeMs: env.ORDER_EVENTS_MAX_AGE_HOURS * 3_600_000,
    maxBytes: env.ORDER_EVENTS_MAX_BYTES,
    duplicateWindowMs: env.ORDER_EVENTS_DUPLICATE_WINDOW_SECONDS * 1000,
  };
}

/**
 * Settings JetStream can change on a live stream (applied in place at start) and settings fixed at
 * creation (a difference is logged, never applied: changing them means a new stream).
 */
export function desiredStreamConfig(n: Names, s: OrderEventStreamSettings) {
  if (s.duplicateWindowMs > s.maxAgeMs) throw new Error('duplicate window longer than the max age');
  return {
    updatable: {
      subjects: [n.orderEventSubjects],
      num_replicas: s.replicas,
      max_age: s.maxAgeMs * NS_PER_MS,
      max_bytes: s.maxBytes,
      // full stream: new publishes are refused (the outbox keeps them and retries), nothing is evicted
      discard: DiscardPolicy.New,
      duplicate_window: s.duplicateWindowMs * NS_PER_MS,
    },
    fixed: { retention: RetentionPolicy.Limits, storage: StorageType.File },
  };
}

export type StreamReconcile = { action: 'created' | 'unchanged' } | { action: 'updated'; changed: string[] };

/**
 * Creates the order-event stream, or brings an existing one to the configured settings in place.
 * Safe on every replica of every service at once. A fixed setting that differs is logged as an error
 * and left as it is; an update the server refuses (e.g. 3 replicas on a single server) fails the start.
 */
export async function reconcileOrderEventStream(
  jsm: JetStreamManager,
  n: Names,
  s: OrderEventStreamSettings,
  log?: Logger,
): Promise<StreamReconcile> {
  const want = desiredStreamConfig(n, s);
  const current = await jsm.streams.info(n.orderEventsStream).catch(() => null);
  if (!current) {
    try {
      await jsm.streams.add({ name: n.orderEventsStream, ...want.updatable, ...want.fixed });
      return { action: 'created' };
    } catch (e) {
      // another process created it first: reconcile against what it created
      if (!(await jsm.streams.info(n.orderEventsStream).catch(() => null))) throw e;
      return reconcileOrderEventStream(jsm, n, s, log);
    }
  }
  // a single server refuses to create a replicated stream but accepts the update (and ignores it)
  if (s.replicas > 1 && !current.cluster?.name)
    throw new Error(
      `ORDER_EVENTS_REPLICAS=${s.replicas} needs a JetStream cluster of at least ${s.replicas} servers; this NATS server is not clustered`,
    );
  const cfg = current.config as StreamConfig;
  const differs = ([k, v]: [string, unknown]) =>
    JSON.stringify(cfg[k as keyof StreamConfig]) !== JSON.stringify(v);
  const fixed = Object.entries(want.fixed).filter(differs);
  if (fixed.length)
    log?.error(
      { stream: n.orderEventsStream, fixed: Object.fromEntries(fixed) },
      'order-event stream: settings that cannot change in place differ from the configuration; kept',
    );
  const changed = Object.entries(want.updatable)
    .filter(differs)
    .map(([k]) => k);
  if (changed.length === 0) return { action: 'unchanged' };
  await jsm.streams.update(n.orderEventsStream, { ...cfg, ...want.updatable });
  log?.info({ stream: n.orderEventsStream, changed }, 'order-event stream updated in place');
  return { action: 'updated', changed };
}

/** Creates or updates the order-event stream (see reconcileOrderEventStream) and returns the manager. */
export async function ensureOrderEventStream(
  nc: NatsConnection,
  n: Names,
  s: OrderEventStreamSettings,
  log?: Logger,
): Promise<JetStreamManager> {
  const jsm = await jetstreamManager(nc);
  await reconcileOrderEventStream(jsm, n, s, log);
  return jsm;
}

/**
 * Opens (creating when missing) a KV bucket with `replicas` copies: the bus's durable state lives on
 * as many JetStream servers as the order-event stream (ORDER_EVENTS_REPLICAS), so losing one node of a
 * cluster never makes the credentials (or the gateway registry) unreadable. A bucket created earlier
 * with fewer replicas is raised to `replicas` when `raise` (its writer, which holds STREAM.UPDATE);
 * others open it as it is.
 */
export async function openKv(
  nc: NatsConnection,
  bucket: string,
  opts: { replicas: number; ttl?: number; raise?: boolean },
  log?: Logger,
): Promise<KV> {
  const kv = await new Kvm(nc).create(bucket, {
    history: 1,
    replicas: opts.replicas,
    ...(opts.ttl ? { ttl: opts.ttl } : {}),
  });
  if (opts.raise && opts.replicas > 1) {
    const jsm = await jetstreamManager(nc);
    const stream = `KV_${bucket}`;
    const { config } = await jsm.streams.info(stream);
    if ((config.num_replicas ?? 1) < opts.replicas) {
      await jsm.streams.update(stream, { ...config, num_replicas: opts.replicas });
      log?.info({ bucket, replicas: opts.replicas }, 'KV bucket raised to the configured replicas');
    }
  }
  return kv;
}

/** The credentials bucket (auth writes it and raises its replicas; gateway, feed and webhook read it). */
export async function openCredentialsKv(
  nc: NatsConnection,
  n: Names,
  replicas = 1,
  opts: { raise?: boolean; log?: Logger } = {},
): Promise<KV> {
  return openKv(nc, n.credentialsBucket, { replicas, raise: opts.raise }, opts.log);
}
