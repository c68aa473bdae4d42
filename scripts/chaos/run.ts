// `pnpm chaos [--minutes N] [--replicas N] [--stores N] [--workers N] [--lenient] [--nats-cluster 3]`
// Starts its own PostgreSQL, Redis and NATS (JetStream) on spare ports, every service from its bundle
// with N replicas, drives orders and polls feeds while faults are injected, then checks that
// nothing was lost or executed twice. Summary on stdout, details in scripts/chaos/results/.
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { names } from '@od/contracts';
import { localProductionEnv, rpcKeyRing } from '../lib/local-production-env.ts';
import { SERVICES } from '../services.ts';
import { CLUSTER_FAULT_KINDS, FAULT_KINDS, type Fault, faultSchedule, injectFault } from './faults.ts';
import { Client, sleep, untilAnswered } from './http.ts';
import { summary } from './report.ts';
import {
  freePort,
  type NatsNode,
  type OwnServer,
  ownNats,
  ownNatsCluster,
  ownPostgres,
  ownRedis,
} from './servers.ts';
import { buildBundles, type ChaosStack, startChaosStack } from './stack.ts';
import { type OrderTruth, verify } from './verify.ts';
import {
  createStores,
  type DrivenOrder,
  driveOrder,
  type FeedLog,
  PLANS,
  type Plan,
  pollFeed,
} from './workload.ts';

const { values: args } = parseArgs({
  options: {
    minutes: { type: 'string', default: '2' },
    replicas: { type: 'string', default: '2' },
    stores: { type: 'string', default: '3' },
    workers: { type: 'string', default: '6' },
    // known gaps of before issue 9 item 4 (retry answered already_applied instead of a replay,
    // intake creating an order twice) fail the run; --lenient only counts them
    lenient: { type: 'boolean', default: false },
    // events out of per-order order are always counted; with this flag they are listed without
    // failing the run (for investigating one)
    'allow-out-of-order': { type: 'boolean', default: false },
    // kill only replicas of these services (comma-separated, e.g. `feed`): to aim the kills
    kill: { type: 'string', default: '' },
    // a JetStream cluster of N nodes (the order-event stream at N replicas) instead of one server;
    // adds the `natsnode` fault: one node killed and restarted, half the time the stream's leader
    'nats-cluster': { type: 'string', default: '0' },
  },
});
const minutes = Number(args.minutes);
const killOnly = args.kill ? args.kill.split(',').map((s) => s.trim()) : [];
const RESULTS = path.join(import.meta.dirname, 'results');
const log = (m: string) => console.log(`[chaos ${new Date().toISOString().slice(11, 19)}] ${m}`);

/** An order that is created and never driven: the recovery probe reads it through every gateway. */
const PROBE_PLAN: Plan = {
  name: 'probe',
  type: 'DELIVERY',
  actions: [],
  final: 'PENDING',
  events: ['CREATED'],
};
const WEIGHTS: [Plan, number][] = [
  [PLANS[0], 0.5],
  [PLANS[1], 0.3],
  [PLANS[2], 0.2],
];
const pickPlan = () => {
  let x = Math.random();
  for (const [p, w] of WEIGHTS) if ((x -= w) < 0) return p;
  return PLANS[0];
};

/** The server name of the order-event stream's leader, asked of any node that answers. */
async function streamLeader(nodes: NatsNode[]): Promise<string | undefined> {
  for (const node of nodes.filter((n) => n.server.running())) {
    const nc = await connect({ servers: node.server.url.replace('nats://', ''), timeout: 1000 }).catch(
      () => null,
    );
    if (!nc) continue;
    try {
      const jsm = await jetstreamManager(nc);
      const info = await jsm.streams.info(names('chaos').orderEventsStream);
      if (info.cluster?.leader) return info.cluster.leader;
    } catch {
      // no leader elected right now: ask the next node
    } finally {
      await nc.close().catch(() => {});
    }
  }
  return undefined;
}

async function main(): Promise<number> {
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const logDir = path.join(RESULTS, `logs-${stamp}`);
  mkdirSync(logDir, { recursive: true });
  const clusterSize = Number(args['nats-cluster']);
  log(
    `starting PostgreSQL, Redis and NATS${clusterSize ? ` (a ${clusterSize}-node JetStream cluster)` : ''} on spare ports`,
  );
  const cluster = clusterSize > 0 ? await ownNatsCluster(clusterSize) : undefined;
  const [pg, redis, nats] = await Promise.all([
    ownPostgres(),
    ownRedis(),
    cluster ? Promise.resolve(cluster.all) : ownNats(),
  ]);
  const servers: Record<'postgres' | 'redis' | 'nats', OwnServer> = { postgres: pg, redis, nats };
  let stack: ChaosStack | undefined;
  // Ctrl-C: never leave our servers and service processes behind
  for (const signal of ['SIGINT', 'SIGTERM'] as const)
    process.once(signal, () => {
      log(`${signal}: stopping`);
      void Promise.allSettled([stack?.stop(), ...Object.values(servers).map((x) => x.destroy())]).then(() =>
        process.exit(130),
      );
    });
  try {
    log('building bundles');
    buildBundles();
    const replicas = Number(args.replicas);
    const gatewayPorts = [];
    for (let i = 0; i < replicas; i++)
      gatewayPorts.push({ port: await freePort(), adminPort: await freePort() });
    // production requires RPC keys: one pair per service
    const { signingKeys, publicKeys } = rpcKeyRing(SERVICES);
    const env = {
      ...localProductionEnv('chaos'),
      DATABASE_URL: pg.url,
      REDIS_URL: redis.url,
      NATS_URL: nats.url,
      NATS_PREFIX: 'chaos',
      ORDER_EVENTS_REPLICAS: String(clusterSize || 1),
      // production requires a NATS identity too; the scenario's own nats-server has no users (it
      // ignores the identity), so one identity serves every process
      NATS_USER: 'chaos',
      NATS_PASSWORD: randomBytes(16).toString('hex'),
      RPC_PUBLIC_KEYS: publicKeys,
    };
    log(`starting ${replicas} replicas of each service`);
    stack = await startChaosStack({
      env,
      signingKeys,
      replicas,
      gatewayPorts,
      logDir,
      log,
    });
    const client = new Client(stack.publicUrls, stack.adminUrls, stack.adminToken);
    const stores = await createStores(client, Number(args.stores), 2);
    const probeOrder = await driveOrder(client, stores, 0, PROBE_PLAN, 0);
    if (!probeOrder) throw new Error('could not create the probe order');
    const probeToken = stores[0].credentials[0].token;
    const probe = async () => {
      for (let i = 0; i < stack!.publicUrls.length; i++) {
        const r = await client.api('probe.order', `/v1/orders/${probeOrder.id}`, probeToken);
        if (r.status !== 200) return false;
      }
      return true;
    };
    log(`stack up: ${stores.length} stores, ${stores.length * 2} credentials`);

    const runStart = Date.now();
    const endAt = runStart + minutes * 60_000;
    const driven: DrivenOrder[] = [probeOrder];
    const feeds: FeedLog[] = stores.flatMap((s, i) =>
      s.credentials.map((c) => ({
        clientId: c.clientId,
        store: i,
        deliveries: [],
        pollErrors: 0,
        ackErrors: 0,
      })),
    );
    let pollersStop = false;
    const pollers = stores.flatMap((s) =>
      s.credentials.map((c) =>
        pollFeed(client, c, feeds.find((f) => f.clientId === c.clientId)!, () => pollersStop),
      ),
    );
    const workers = Array.from({ length: Number(args.workers) }, async () => {
      while (Date.now() < endAt) {
        const o = await driveOrder(client, stores, Math.floor(Math.random() * stores.length), pickPlan(), 50);
        if (o) driven.push(o);
      }
    });
    const faults: Fault[] = [];
    const chaos = (async () => {
      await sleep(8_000);
      // about one fault every 10 s, none in the last 15 s (the stack must settle before the checks)
      const schedule = faultSchedule(
        Math.max(cluster ? 5 : 4, Math.floor((minutes * 60 - 25) / 10)),
        cluster ? CLUSTER_FAULT_KINDS : FAULT_KINDS,
      );
      for (const kind of schedule) {
        if (Date.now() > endAt - 15_000) break;
        const f = await injectFault(kind, {
          stack: stack!,
          servers,
          client,
          probe,
          killOnly,
          cluster: cluster && { nodes: cluster.nodes, leader: () => streamLeader(cluster.nodes) },
        });
        faults.push(f);
        log(
          `fault ${kind}${f.target ? ` ${f.target}` : ''}: outage ${f.restored - f.start} ms, ` +
            `recovered ${f.healthy - f.restored} ms after`,
        );
        await sleep(2_000 + Math.random() * 6_000);
      }
    })();
    await Promise.all([...workers, chaos]);
    log(`traffic stopped: ${driven.length} orders; waiting for every feed to catch up`);

    // every event of the orders we drove, for every credential of the store (plan counts)
    const want = (store: number) =>
      driven
        .filter((o) => o.store === store && o.completed)
        .reduce((n, o) => n + [PROBE_PLAN, ...PLANS].find((p) => p.name === o.plan)!.events.length, 0);
    const drainUntil = Date.now() + 120_000;
    while (Date.now() < drainUntil) {
      const behind = feeds.filter((f) => {
        const mine = new Set(driven.filter((o) => o.store === f.store).map((o) => o.id));
        const got = new Set(f.deliveries.filter((d) => mine.has(d.orderId)).map((d) => d.eventId));
        return got.size < want(f.store);
      });
      if (behind.length === 0) break;
      await sleep(500);
    }
    await sleep(3_000); // late duplicates
    pollersStop = true;
    await Promise.all(pollers);
    const drainedAt = Date.now();

    log('reading every order back through the admin API');
    const ids = new Set([
      ...driven.map((o) => o.id),
      ...feeds.flatMap((f) => f.deliveries.map((d) => d.orderId)),
    ]);
    const storeOf = new Map(stores.map((s, i) => [s.merchantId, i]));
    const truths: OrderTruth[] = [];
    const queue = [...ids];
    await Promise.all(
      Array.from({ length: 4 }, async () => {
        for (let id = queue.pop(); id; id = queue.pop()) {
          const { answer: r } = await untilAnswered(() =>
            client.admin('admin.orders.get', 'GET', `/admin/v1/orders/${id}`),
          );
          const b = r.body as {
            merchant?: { id: string };
            situation?: string;
            history?: OrderTruth['history'];
          };
          if (r.status !== 200 || !b.merchant) throw new Error(`read order ${id}: ${r.status}`);
          truths.push({
            id,
            store: storeOf.get(b.merchant.id) ?? -1,
            situation: b.situation!,
            history: b.history!,
          });
        }
      }),
    );
    const verdict = verify({
      plans: [PROBE_PLAN, ...PLANS],
      driven,
      truths,
      feeds,
      // the final reads below are retried and not part of the scenario
      calls: client.calls.filter((c) => c.start <= drainedAt),
      faults,
      exits: stack.exits.filter((e) => e.at <= Date.now()),
      strict: !args.lenient,
      allowOutOfOrder: args['allow-out-of-order'],
    });
    const text = summary(verdict, minutes);
    console.log(`\n${text}\n`);
    const file = path.join(RESULTS, `chaos-${stamp}.json`);
    writeFileSync(
      file,
      JSON.stringify(
        {
          startedAt: new Date(runStart).toISOString(),
          minutes,
          replicas,
          natsCluster: clusterSize,
          stores: stores.length,
          workers: Number(args.workers),
          verdict,
          faults,
          pollErrors: feeds.reduce((n, f) => n + f.pollErrors, 0),
          ackErrors: feeds.reduce((n, f) => n + f.ackErrors, 0),
          calls: client.calls.length,
        },
        null,
        2,
      ),
    );
    log(
      `results: ${path.relative(process.cwd(), file)}; process logs: ${path.relative(process.cwd(), logDir)}`,
    );
    return verdict.violations.length ? 1 : 0;
  } finally {
    await stack?.stop().catch(() => {});
    await Promise.all(Object.values(servers).map((s) => s.destroy().catch(() => {})));
  }
}

main().then(
  (code) => process.exit(code),
  (e) => {
    console.error(e);
    process.exit(2);
  },
);
