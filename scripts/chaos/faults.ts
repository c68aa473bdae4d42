// The faults: SIGKILL of a random service process (restarted), NATS killed and restarted, PostgreSQL
// stopped immediately and restarted, Redis killed and restarted (its data is lost: no persistence).
// One at a time; each one's window runs from its start until the stack serves again (probe), plus
// a grace for answers already waiting on a dead replica (the gateway's RPC timeout).
import type { Client } from './http.ts';
import { sleep } from './http.ts';
import type { NatsNode, OwnServer } from './servers.ts';
import type { ChaosStack } from './stack.ts';

export const FAULT_KINDS = ['kill', 'nats', 'postgres', 'redis'] as const;
/** `natsnode`: one node of a JetStream cluster killed and restarted (`--nats-cluster`), half the time the stream leader */
export const CLUSTER_FAULT_KINDS = [...FAULT_KINDS, 'natsnode'] as const;
export type FaultKind = (typeof CLUSTER_FAULT_KINDS)[number];

/**
 * After the stack is healthy again, answers may still fail for a while: a request delivered to a
 * replica that died waits the gateway's RPC timeout (5 s); a retried action whose first try held the
 * idempotency lock when Redis died or timed out waits for that lock (up to 15 s, then 503).
 */
export const GRACE_MS = 20_000;

export interface Fault {
  kind: FaultKind;
  /** the killed process, for `kill` */
  target?: string;
  start: number;
  /** the dependency (or process) is back */
  restored: number;
  /** the stack serves again: health and a read through every gateway */
  healthy: number;
  /** end of the window in which 5xx are expected */
  windowEnd: number;
}

const between = (a: number, b: number) => a + Math.random() * (b - a);

/** Healthy = every gateway answers the admin health 200 and serves a public read. */
async function probeHealthy(client: Client, probe: () => Promise<boolean>, timeoutMs = 120_000) {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    const h = await client.admin('probe.health', 'GET', '/admin/v1/health');
    const h2 = await client.admin('probe.health', 'GET', '/admin/v1/health');
    if (h.status === 200 && h2.status === 200 && (await probe())) return Date.now();
    await sleep(100);
  }
  throw new Error(`stack did not become healthy within ${timeoutMs} ms`);
}

export async function injectFault(
  kind: FaultKind,
  deps: {
    stack: ChaosStack;
    servers: Record<'nats' | 'postgres' | 'redis', OwnServer>;
    client: Client;
    probe: () => Promise<boolean>;
    /** kill only replicas of these services (default: any) */
    killOnly?: string[];
    /** `--nats-cluster`: the nodes, and the name of the order-event stream's leader now */
    cluster?: { nodes: NatsNode[]; leader: () => Promise<string | undefined> };
  },
): Promise<Fault> {
  const start = Date.now();
  let target: string | undefined;
  let restored: number;
  if (kind === 'kill') {
    const candidates = deps.stack.replicas.filter(
      (r) => r.ready && (!deps.killOnly?.length || deps.killOnly.includes(r.service)),
    );
    const victim = candidates[Math.floor(Math.random() * candidates.length)];
    target = victim.id;
    await deps.stack.killAndRestart(victim, between(300, 1500));
    restored = Date.now();
    await deps.stack.untilReady(victim);
  } else if (kind === 'natsnode') {
    if (!deps.cluster) throw new Error('natsnode needs --nats-cluster');
    const { nodes } = deps.cluster;
    const leader = Math.random() < 0.5 ? await deps.cluster.leader().catch(() => undefined) : undefined;
    const victim = nodes.find((n) => n.name === leader) ?? nodes[Math.floor(Math.random() * nodes.length)];
    target = victim.name === leader ? `${victim.name} (stream leader)` : victim.name;
    await victim.server.stop();
    await sleep(between(1000, 3000));
    await victim.server.start();
    restored = Date.now();
  } else {
    const server = deps.servers[kind];
    await server.stop();
    await sleep(kind === 'postgres' ? between(2000, 4000) : between(1000, 3000));
    await server.start();
    restored = Date.now();
  }
  const healthy = await probeHealthy(deps.client, deps.probe);
  return { kind, target, start, restored, healthy, windowEnd: healthy + GRACE_MS };
}

/**
 * Fault kinds in an order that gives each kind its turn early (the 2-minute form sees all four):
 * a shuffled round of the four kinds, then shuffled rounds with one more kill.
 */
export function faultSchedule(count: number, kinds: readonly FaultKind[] = FAULT_KINDS): FaultKind[] {
  const shuffled = <T>(xs: T[]) => [...xs].sort(() => Math.random() - 0.5);
  const out: FaultKind[] = shuffled([...kinds]);
  while (out.length < count) out.push(...shuffled<FaultKind>([...kinds, 'kill']));
  return out.slice(0, count);
}
