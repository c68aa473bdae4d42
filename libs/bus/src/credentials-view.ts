import type { KV } from '@nats-io/kv';
import type { NatsConnection } from '@nats-io/transport-node';
import { type CredentialRecord, credentialRecordSchema } from '@od/contracts';
import type { Logger } from '@od/logger';

/**
 * A live, in-memory copy of the credentials KV bucket (pushed by auth on every change).
 * `ready` resolves once the current values are loaded; updates then arrive within a NATS hop.
 */
export interface CredentialsView {
  get(clientId: string): CredentialRecord | undefined;
  byMerchant(merchantId: string): CredentialRecord[];
  /** highest KV revision seen: lets a writer wait until this view includes its own write */
  revision(): number;
  waitForRevision(rev: number, timeoutMs?: number): Promise<boolean>;
  /**
   * For how long this view may have missed updates, in ms: 0 while connected and watching,
   * the time since the connection dropped while disconnected, Infinity once the watch ended.
   */
  staleness(): number;
  ready: Promise<void>;
  stop(): void;
}

export async function watchCredentials(
  kv: KV,
  log: Logger,
  onChange?: (rec: CredentialRecord) => void,
  /** the connection under `kv`: its disconnections count as staleness */
  nc?: NatsConnection,
): Promise<CredentialsView> {
  const byId = new Map<string, CredentialRecord>();
  // store -> its credentials: an event's recipients are found without scanning every credential
  const byStore = new Map<string, Map<string, CredentialRecord>>();
  const unindex = (rec: CredentialRecord | undefined) => {
    if (!rec) return;
    const store = rec.merchantId.toLowerCase();
    const of = byStore.get(store);
    of?.delete(rec.clientId);
    if (of?.size === 0) byStore.delete(store);
  };
  const index = (rec: CredentialRecord) => {
    const prior = byId.get(rec.clientId);
    if (prior && prior.merchantId.toLowerCase() !== rec.merchantId.toLowerCase()) unindex(prior);
    byId.set(rec.clientId, rec);
    const store = rec.merchantId.toLowerCase();
    let of = byStore.get(store);
    if (!of) byStore.set(store, (of = new Map()));
    of.set(rec.clientId, rec);
  };
  let rev = 0;
  const waiters = new Set<{ rev: number; resolve: (ok: boolean) => void }>();
  const status = await kv.status();
  let markReady!: () => void;
  const ready = new Promise<void>((r) => {
    markReady = r;
  });
  if (status.values === 0) markReady();
  const iter = await kv.watch();
  let ended = false;
  let stopped = false;
  let disconnectedAt: number | undefined;
  if (nc) {
    void (async () => {
      for await (const st of nc.status()) {
        if (st.type === 'disconnect') disconnectedAt ??= Date.now();
        else if (st.type === 'reconnect') disconnectedAt = undefined;
      }
    })();
  }
  void (async () => {
    try {
      await consume();
    } catch (err) {
      log.error({ err }, 'credentials watch failed');
    } finally {
      ended = true;
      if (!stopped) log.warn('credentials watch ended: this view is stale from now on');
    }
  })();
  async function consume() {
    for await (const e of iter) {
      rev = Math.max(rev, e.revision);
      if (e.operation === 'PUT') {
        try {
          const rec = credentialRecordSchema.parse(e.json());
          index(rec);
          onChange?.(rec);
        } catch (err) {
          log.error({ err, key: e.key }, 'bad credential record in KV');
        }
      } else {
        unindex(byId.get(e.key));
        byId.delete(e.key);
      }
      if (e.delta === 0) markReady();
      for (const w of waiters) {
        if (rev >= w.rev) {
          waiters.delete(w);
          w.resolve(true);
        }
      }
    }
  }
  return {
    get: (id) => byId.get(id),
    byMerchant: (m) => [...(byStore.get(m.toLowerCase())?.values() ?? [])],
    revision: () => rev,
    waitForRevision: (want, timeoutMs = 2000) =>
      rev >= want
        ? Promise.resolve(true)
        : new Promise<boolean>((resolve) => {
            const w = { rev: want, resolve };
            waiters.add(w);
            setTimeout(() => {
              if (waiters.delete(w)) resolve(false);
            }, timeoutMs).unref();
          }),
    staleness: () => (ended ? Number.POSITIVE_INFINITY : disconnectedAt ? Date.now() - disconnectedAt : 0),
    ready,
    stop: () => {
      stopped = true;
      iter.stop();
    },
  };
}
