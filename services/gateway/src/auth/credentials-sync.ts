import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { KV } from '@nats-io/kv';
import type { NatsConnection, Subscription } from '@nats-io/transport-node';
import { CONFIRM_TIMEOUT_MS, type CredentialsView, confirmAtGateways, openKv } from '@od/bus';
import type { Names } from '@od/contracts';
import type { Logger } from '@od/logger';

/**
 * Cross-replica barrier for credential changes. Every gateway replica registers in a KV bucket
 * (key = replica id) with a heartbeat; entries expire `REGISTRY_TTL_MS` after the last beat, so a
 * replica that died leaves the registry by itself, and one that stops cleanly deletes its key. After
 * auth wrote revision `rev`, the gateway that handled the admin request asks EVERY registered
 * replica, on its own subject, to confirm its view includes `rev`, and reports those that did not.
 *
 * Staleness: a replica whose view may have missed updates for more than `STALE_AFTER_MS` (watch
 * ended, NATS disconnected, or heartbeats failing) refuses bearer-checked requests with 503: it cannot
 * know whether a credential was paused or revoked meanwhile.
 */
const HEARTBEAT_MS = 2_000;
const REGISTRY_TTL_MS = 10_000;
export const STALE_AFTER_MS = 5_000;
export { CONFIRM_TIMEOUT_MS };

const enc = new TextEncoder();

export interface GatewayReplicas {
  /** this replica's id in the registry */
  readonly id: string;
  /** ms this replica's credentials view may have missed updates (0 = live) */
  staleness(): number;
  /** waits until every live replica has seen `rev`; lists the ids that did not confirm in time */
  confirm(rev: number): Promise<{ unconfirmed: string[] }>;
  stop(): Promise<void>;
}

export async function joinGatewayRegistry(
  nc: NatsConnection,
  n: Names,
  view: CredentialsView,
  log: Logger,
  replicas = 1,
): Promise<GatewayReplicas> {
  const id = `gw_${randomBytes(6).toString('hex')}`;
  const kv: KV = await openKv(nc, n.gatewaysBucket, { replicas, ttl: REGISTRY_TTL_MS, raise: true }, log);
  const entry = JSON.stringify({ id, host: hostname(), pid: process.pid, since: new Date().toISOString() });
  let lastBeat = Date.now();
  const beat = async () => {
    try {
      await kv.put(id, entry);
      lastBeat = Date.now();
    } catch (err) {
      log.warn({ err: (err as Error).message }, 'gateway heartbeat failed');
    }
  };
  await kv.put(id, entry);
  const timer = setInterval(() => void beat(), HEARTBEAT_MS);
  timer.unref();

  const sub: Subscription = nc.subscribe(n.gatewaySync(id), {
    callback: (err, msg) => {
      if (err) return;
      let rev = 0;
      try {
        rev = Number((msg.json() as { rev?: unknown }).rev) || 0;
      } catch {
        return;
      }
      void view.waitForRevision(rev, CONFIRM_TIMEOUT_MS - 200).then((ok) => {
        if (msg.reply) msg.respond(enc.encode(JSON.stringify({ ok })));
      });
    },
  });

  const staleness = () => Math.max(view.staleness(), Date.now() - lastBeat - HEARTBEAT_MS);

  return {
    id,
    staleness,
    confirm: (rev) => confirmAtGateways(nc, n, rev, log, id),
    async stop() {
      clearInterval(timer);
      sub.unsubscribe();
      await kv.delete(id).catch(() => {});
    },
  };
}
