import { Kvm } from '@nats-io/kv';
import type { NatsConnection } from '@nats-io/transport-node';
import type { Names } from '@od/contracts';
import type { Logger } from '@od/logger';

/** how long one gateway replica may take to confirm a credentials revision */
export const CONFIRM_TIMEOUT_MS = 2_500;
/**
 * how long listing the registry may take: a KV key listing (an ordered consumer) can stall when
 * registry entries expire while it runs (the bucket has a TTL), and an admin change must not hang
 */
export const REGISTRY_LIST_TIMEOUT_MS = 1_500;

const enc = new TextEncoder();

type Registry = Awaited<ReturnType<Kvm['open']>>;
/** the registry bucket's handle per connection and bucket: opening it costs a STREAM.INFO round trip */
const registries = new WeakMap<NatsConnection, Map<string, Promise<Registry>>>();
function registry(nc: NatsConnection, bucket: string): Promise<Registry> {
  let byBucket = registries.get(nc);
  if (!byBucket) registries.set(nc, (byBucket = new Map()));
  let kv = byBucket.get(bucket);
  if (!kv) {
    const opening = new Kvm(nc).open(bucket);
    byBucket.set(bucket, opening);
    // a bucket that does not exist yet is looked up again next time
    opening.catch(() => byBucket.delete(bucket));
    kv = opening;
  }
  return kv;
}

/**
 * Asks every gateway replica registered in the registry bucket (services/gateway
 * auth/credentials-sync.ts) to confirm its credentials view includes revision `rev`, each on its own
 * subject, and lists those that did not within CONFIRM_TIMEOUT_MS. Used by every front door that
 * changes a credential (gateway admin API, merchant panel). `self` is always asked.
 */
export async function confirmAtGateways(
  nc: NatsConnection,
  n: Names,
  rev: number,
  log: Logger,
  self?: string,
): Promise<{ unconfirmed: string[] }> {
  if (!(rev > 0)) return { unconfirmed: [] };
  const ids = new Set<string>(self ? [self] : []);
  let listedAll = true;
  try {
    const kv = await registry(nc, n.gatewaysBucket);
    const keys = await kv.keys();
    // a heartbeat landing during the listing can yield a key twice
    const listing = (async () => {
      for await (const k of keys) ids.add(k);
      return true;
    })();
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<false>((r) => {
      timer = setTimeout(() => r(false), REGISTRY_LIST_TIMEOUT_MS);
    });
    listedAll = await Promise.race([listing, late]);
    clearTimeout(timer);
    if (!listedAll) {
      keys.stop();
      log.warn({ listed: ids.size }, 'gateway registry listing did not finish in time');
    }
  } catch (err) {
    if (!self) return { unconfirmed: [] }; // no registry: no gateway has ever run
    log.warn({ err: (err as Error).message }, 'gateway registry unreadable');
    return { unconfirmed: ['registry'] };
  }
  const ask = async (replica: string): Promise<boolean> => {
    try {
      const m = await nc.request(n.gatewaySync(replica), enc.encode(JSON.stringify({ rev })), {
        timeout: CONFIRM_TIMEOUT_MS,
      });
      return (m.json() as { ok?: boolean }).ok === true;
    } catch {
      return false;
    }
  };
  const answers = await Promise.all([...ids].map(async (r) => [r, await ask(r)] as const));
  const unconfirmed = answers.filter(([, ok]) => !ok).map(([r]) => r);
  // a replica the cut listing missed is not known to have seen the change
  if (!listedAll) unconfirmed.push('registry');
  if (unconfirmed.length)
    log.warn({ rev, unconfirmed }, 'gateway replicas did not confirm a credential change in time');
  return { unconfirmed };
}
