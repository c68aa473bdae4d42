// Webhook delivery figures:
//   1. latency from an action's 202 (POST /v1/orders/{id}/confirm) to the CONFIRMED webhook arriving at
//      a local HTTPS receiver (full stack: gateway -> orders -> outbox -> JetStream -> webhook -> HTTPS);
//   2. sustained deliveries/s: order events published straight to JetStream for many stores, each
//      with a WEBHOOK credential pointing at the local receiver (signing, PostgreSQL bookkeeping, HTTPS).
// `pnpm bench --only webhook`, or `npx tsx bench/webhook-delivery.ts [orders=200] [events=4000] [stores=20]`.
// The webhook service must trust the receiver's test CA, which Node reads only at process start
// (NODE_EXTRA_CA_CERTS): the measurement runs in a child process with an in-process stack.
import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { BenchContext } from './lib/types.ts';

const SELF = import.meta.filename;
const ROOT = path.resolve(import.meta.dirname, '..');

interface WebhookBenchResult {
  orders: number;
  latencyFrom202: { p50Ms: number; p99Ms: number };
  latencyFromRequest: { p50Ms: number; p99Ms: number };
  throughput: {
    events: number;
    stores: number;
    deliveriesPerSec: number;
    publishPerSec: number;
    p50Ms: number;
    p99Ms: number;
  };
  singleUrl: { events: number; deliveriesPerSec: number };
}

function caBundle(): string {
  const testCa = path.join(ROOT, 'libs', 'testing', 'certs', 'ca.pem');
  const extra = process.env.NODE_EXTRA_CA_CERTS;
  if (!extra || !existsSync(extra) || extra === testCa) return testCa;
  const bundle = path.join(os.tmpdir(), 'od-bench-ca-bundle.pem');
  writeFileSync(bundle, `${readFileSync(extra, 'utf8')}\n${readFileSync(testCa, 'utf8')}`);
  return bundle;
}

function runChild(args: string[]): WebhookBenchResult {
  const r = spawnSync(process.execPath, ['--import', 'tsx', SELF, '--child', ...args], {
    cwd: ROOT,
    env: { ...process.env, NODE_EXTRA_CA_CERTS: caBundle(), TEST_LOG_LEVEL: 'silent' },
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
    timeout: 600_000,
  });
  const line = r.stdout
    .trim()
    .split('\n')
    .reverse()
    .find((l) => l.startsWith('{"result"'));
  if (!line) throw new Error(`webhook bench failed (${r.status}):\n${r.stderr.slice(-3000)}`);
  return JSON.parse(line).result as WebhookBenchResult;
}

/** Discovered by `pnpm bench` (bench/run.ts). */
export async function benchWebhookDelivery(ctx: BenchContext): Promise<void> {
  ctx.log('  webhook: in-process stack in a child process (test CA trust)');
  const r = runChild([]);
  ctx.record({
    name: 'webhook: confirm 202 -> CONFIRMED webhook received',
    p50Ms: r.latencyFrom202.p50Ms,
    p99Ms: r.latencyFrom202.p99Ms,
    extra: {
      orders: r.orders,
      fromRequestP50Ms: r.latencyFromRequest.p50Ms,
      fromRequestP99Ms: r.latencyFromRequest.p99Ms,
    },
  });
  ctx.record({
    name: `webhook: sustained deliveries (${r.throughput.stores} stores)`,
    reqPerSec: r.throughput.deliveriesPerSec,
    p50Ms: r.throughput.p50Ms,
    p99Ms: r.throughput.p99Ms,
    extra: { events: r.throughput.events, publishPerSec: r.throughput.publishPerSec },
  });
  ctx.record({
    name: 'webhook: sustained deliveries (one URL, per-URL cap 4)',
    reqPerSec: r.singleUrl.deliveriesPerSec,
    extra: { events: r.singleUrl.events },
  });
}

// ---- child: the measurement itself -------------------------------------------------------------

const pct = (xs: number[], p: number) => {
  const s = [...xs].filter((x) => Number.isFinite(x)).sort((a, b) => a - b);
  return Number(
    (s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))] ?? Number.NaN).toFixed(2),
  );
};

async function child(orders: number, events: number, stores: number): Promise<WebhookBenchResult> {
  const { jetstream } = await import('@nats-io/jetstream');
  const { connect } = await import('@nats-io/transport-node');
  const { names } = await import('@od/contracts');
  const { requestToken, startHttpsReceiver, startStack } = await import('@od/testing');
  const stack = await startStack({ env: { RATE_LIMIT_ENABLED: 'false' } });
  const rx = await startHttpsReceiver();
  const nc = await connect({ servers: stack.config.NATS_URL });
  const admin = async (method: string, p: string, body?: unknown) => {
    const r = await stack.admin(method, p, body);
    const text = await r.text();
    if (r.status >= 300) throw new Error(`${method} ${p}: ${r.status} ${text}`);
    return text ? JSON.parse(text) : undefined;
  };
  const store = async (hookPath: string) => {
    const m = await admin('POST', '/admin/v1/merchants', { name: `Loja bench ${hookPath}`, test: true });
    const c = await admin('POST', `/admin/v1/merchants/${m.id}/credentials`, {
      name: 'bench',
      scopes: ['orders:read', 'orders:write'],
      deliveryMode: 'WEBHOOK',
      webhookUrl: `${rx.url}${hookPath}`,
    });
    for (
      let i = 0;
      (await stack.admin('GET', `/admin/v1/credentials/${c.clientId}/webhook`)).status !== 200;
      i++
    ) {
      if (i > 500) throw new Error('credential never reached the webhook service');
      await new Promise((r) => setTimeout(r, 10));
    }
    return {
      merchantId: m.id as string,
      clientId: c.clientId as string,
      clientSecret: c.clientSecret as string,
    };
  };
  try {
    // 1. action -> webhook latency (sequential actions, idle system)
    const s = await store('/latency');
    const tok = await requestToken(stack, s.clientId, s.clientSecret);
    const token = ((await tok.json()) as { access_token: string }).access_token;
    const ids: string[] = [];
    for (let i = 0; i < orders; i++)
      ids.push((await admin('POST', `/admin/v1/merchants/${s.merchantId}/orders`, { type: 'DELIVERY' })).id);
    await rx.waitFor(orders, 60_000, (r) => r.path === '/latency');
    const confirmedAt = new Map<string, number>();
    const before = rx.requests.length;
    const from202: number[] = [];
    const fromReq: number[] = [];
    for (const id of ids) {
      const t0 = Date.now();
      const r = await stack.api(`/v1/orders/${id}/confirm`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}` },
      });
      const t1 = Date.now();
      await r.arrayBuffer();
      if (r.status !== 202) throw new Error(`confirm ${r.status}`);
      const [got] = await rx.waitFor(
        1,
        10_000,
        (q) => q.path === '/latency' && q.rawBody.includes('"CONFIRMED"') && q.rawBody.includes(id),
      );
      confirmedAt.set(id, got.at);
      from202.push(got.at - t1);
      fromReq.push(got.at - t0);
    }
    void before;

    // 2. sustained deliveries: events straight to JetStream for `stores` stores
    const js = jetstream(nc);
    const n = names(stack.config.NATS_PREFIX);
    const targets = [];
    for (let i = 0; i < stores; i++) targets.push(await store(`/tp/${i}`));
    const publish = async (merchantId: string) => {
      const eventId = randomUUID();
      const orderId = randomUUID();
      const envelope = {
        eventId,
        eventType: 'CREATED',
        orderId,
        orderURL: `https://api.bench.local/v1/orders/${orderId}`,
        createdAt: new Date().toISOString(),
      };
      await js.publish(
        n.orderEventSubject(merchantId),
        JSON.stringify({ merchantId, channel: 'DIGITAL_MENU', orderSeq: 1, envelope }),
        {
          msgID: eventId,
        },
      );
      return eventId;
    };
    const measureRun = async (list: { merchantId: string }[], count: number, prefix: string) => {
      const publishedAt = new Map<string, number>();
      const start = rx.requests.filter((r) => r.path.startsWith(prefix)).length;
      const t0 = Date.now();
      let k = 0;
      const workers = Array.from({ length: 16 }, async () => {
        while (k < count) {
          const i = k++;
          const at = Date.now();
          const id = await publish(list[i % list.length].merchantId);
          publishedAt.set(id, at);
        }
      });
      await Promise.all(workers);
      const published = Date.now();
      const got = await rx.waitFor(start + count, 300_000, (r) => r.path.startsWith(prefix));
      const mine = got.slice(start);
      const end = Math.max(...mine.map((r) => r.at));
      const lat = mine.map((r) => r.at - (publishedAt.get(r.headers['webhook-id']) ?? Number.NaN));
      return {
        deliveriesPerSec: Math.round((count / (end - t0)) * 1000),
        publishPerSec: Math.round((count / Math.max(1, published - t0)) * 1000),
        p50Ms: pct(lat, 50),
        p99Ms: pct(lat, 99),
      };
    };
    await measureRun(targets, Math.min(500, events), '/tp/'); // warm-up
    const tp = await measureRun(targets, events, '/tp/');
    const one = await measureRun([targets[0]], Math.ceil(events / 4), '/tp/0');
    return {
      orders,
      latencyFrom202: { p50Ms: pct(from202, 50), p99Ms: pct(from202, 99) },
      latencyFromRequest: { p50Ms: pct(fromReq, 50), p99Ms: pct(fromReq, 99) },
      throughput: { events, stores, ...tp },
      singleUrl: { events: Math.ceil(events / 4), deliveriesPerSec: one.deliveriesPerSec },
    };
  } finally {
    await nc.close();
    await rx.close();
    await stack.stop();
  }
}

const isMain = process.argv[1] && path.resolve(process.argv[1]) === SELF;
if (isMain && process.argv.includes('--child')) {
  const [orders = '200', events = '4000', stores = '20'] = process.argv.slice(
    process.argv.indexOf('--child') + 1,
  );
  const result = await child(Number(orders), Number(events), Number(stores));
  console.log(JSON.stringify({ result }));
  process.exit(0);
} else if (isMain) {
  console.log(JSON.stringify(runChild(process.argv.slice(2)), null, 2));
}
