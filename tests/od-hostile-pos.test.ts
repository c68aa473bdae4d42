import { readFileSync } from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { OD_FETCH_TIMEOUT_MS } from '@od/catalog';
import { refusedHost } from '@od/egress';
import { OD_SPEC_PATH } from '@od/opendelivery/validator';
import {
  createMerchant,
  requestToken,
  startDnsServer,
  startStack,
  type TestDnsServer,
  type TestStack,
} from '@od/testing';
import { OpenAPIBackend } from 'openapi-backend';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * Issue 22: a hostile point of sale against catalog's `POST /v1/menuUpdated` read. Its server
 * (a) drips a body slowly, (b) hangs, (c) floods far over 1 MiB fast (64 MiB), serves just under 1 MiB
 * of JSON costly to parse, and (d) one of its credentials calls 20 times a second; seven stores
 * attack at once, each at least 4 times a second, for longer than the read's 10 s budget.
 * Catalog runs in this process (startStack): its memory is this process's heapUsed + external
 * (Buffers live in `external`; the gateway, auth and the hostile server are counted too, which only
 * makes the bound stricter), sampled every 20 ms as is and every 2 s after a full collection.
 * Bound: the reads in flight per replica (OD_MERCHANT_FETCHES = 4) x (1 MiB read + 1 MiB joined +
 * 1 MiB text + the parsed document, ~6 MiB for the costliest 1 MiB of JSON) = 48 MiB retained.
 * Meanwhile another store's menu is read every 50 ms and must keep answering fast: against the
 * same reads just before the attack (same run, same machine load), and never as slow as waiting out
 * a hostile read's budget.
 */
const MiB = 1024 * 1024;
/** retained (after a full collection): 4 reads x (1 MiB read + 1 MiB joined + 1 MiB text + parse) */
const MEMORY_BOUND = 48 * MiB;
/** garbage included (sampled every 20 ms without collecting) */
const RAW_BOUND = 128 * MiB;
// Menu reads are timed less the time other processes kept this thread off a CPU (a load average of
// 33 on 2 cores made the wall-clock p95 3.8 s). The floors: load average 5-15 shows p95 26-180 ms,
// max 110-390 ms (wall clock 230-430 ms, 0.8-2.1 s); the forced collections below pause this whole
// process too, and count. What load is left (PostgreSQL and NATS wait for a CPU as well) slows the
// reads before the attack too: the bounds grow with them (LOAD_* x their p95), up to caps below the
// budget of one point-of-sale read, so a read waiting on a hostile one always fails
const READ_P95_MS = 2_000;
const READ_MAX_MS = 5_000;
const LOAD_P95 = 20;
const LOAD_MAX = 50;
const READ_P95_CAP_MS = OD_FETCH_TIMEOUT_MS / 2;
const READ_MAX_CAP_MS = OD_FETCH_TIMEOUT_MS - 1_000;
const ATTACK_MS = 12_000;
const FETCHES = 4;
const COOLDOWN_MS = 3_000;
const DNS_TIMEOUT_MS = 4_000;
const POS_ID = '22815773000169-dbc7e35a-c936-4665-9e13-eb55eb8b6824';
const CERTS = path.resolve(import.meta.dirname, '../libs/testing/certs');

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
const used = () => {
  const m = process.memoryUsage();
  return m.heapUsed + m.external;
};

type Mode = 'drip' | 'hang' | 'flood' | 'json' | 'slow' | 'good';

/** The hostile point of sale: `/drip`, `/hang`, `/flood` (any suffix); counts reads and open ones. */
async function startHostilePos(good: string) {
  const chunk = Buffer.alloc(64 * 1024, 'x');
  // just under 1 MiB of valid JSON, the costliest shape to parse (tiny objects), not a Merchant
  const json = Buffer.from(`{"items":[${Array(116_000).fill('{"a":1}').join(',')}]}`);
  let open = 0;
  let maxOpen = 0;
  const reads: Record<Mode, number> = { drip: 0, hang: 0, flood: 0, json: 0, slow: 0, good: 0 };
  const paths: string[] = [];
  const timers = new Set<NodeJS.Timeout>();
  const server = https.createServer(
    {
      cert: readFileSync(path.join(CERTS, 'server.pem')),
      key: readFileSync(path.join(CERTS, 'server-key.pem')),
    },
    (req, res) => {
      const mode = (req.url ?? '').split('/')[1] as Mode;
      reads[mode]++;
      paths.push(req.url ?? '');
      open++;
      maxOpen = Math.max(maxOpen, open);
      res.on('close', () => {
        open--;
      });
      if (mode === 'hang') return;
      if (mode === 'good') return void res.writeHead(200, { 'content-type': 'application/json' }).end(good);
      if (mode === 'slow') {
        const t = setTimeout(() => res.writeHead(404).end(), 1_500);
        timers.add(t);
        return;
      }
      if (mode === 'json') return void res.writeHead(200, { 'content-type': 'application/json' }).end(json);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"id":"');
      if (mode === 'drip') {
        // 2 KiB every 50 ms: 40 KiB/s, for ever
        const t = setInterval(() => {
          if (res.destroyed) return clearInterval(t);
          res.write(chunk.subarray(0, 2048));
        }, 50);
        timers.add(t);
        res.on('close', () => clearInterval(t));
        return;
      }
      // flood: 64 MiB as fast as the reader takes it
      let left = 1024;
      const pump = () => {
        while (left > 0 && !res.destroyed) {
          left--;
          if (!res.write(chunk)) return void res.once('drain', pump);
        }
        if (!res.destroyed) res.end('"}');
      };
      pump();
    },
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `https://127.0.0.1:${(server.address() as AddressInfo).port}`,
    reads,
    paths,
    get maxOpen() {
      return maxOpen;
    },
    async close() {
      for (const t of timers) clearTimeout(t);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** The standard's example Merchant (id POS_ID), from the official file itself. */
async function officialExample(): Promise<Record<string, unknown>> {
  const api = new OpenAPIBackend({ definition: OD_SPEC_PATH, quick: true });
  await api.init();
  return structuredClone((api.definition as any).components.examples.merchantExample.value);
}

/** ms this thread (the event loop) spent runnable but waiting for a CPU, from the kernel's schedstat */
const runQueueMs = () => Number(readFileSync('/proc/thread-self/schedstat', 'utf8').split(' ')[1]) / 1e6;

const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) * p)];

describe('a hostile point of sale cannot move catalog past its memory bound (issue 22)', () => {
  let stack: TestStack;
  let pos: Awaited<ReturnType<typeof startHostilePos>>;
  let silentDns: TestDnsServer;

  const admin = async (p: string, body: unknown) => {
    const r = await stack.admin('POST', p, body);
    expect(r.status).toBe(201);
    return (await r.json()) as Record<string, any>;
  };
  const tokenOf = async (merchantId: string, apiProfile: 'OPEN_DELIVERY' | 'SPEC') => {
    const c = await admin(`/admin/v1/merchants/${merchantId}/credentials`, {
      name: `pdv ${apiProfile}`,
      scopes: apiProfile === 'OPEN_DELIVERY' ? ['merchant:read', 'merchant:write'] : ['catalog:read'],
      deliveryMode: 'POLLING',
      apiProfile,
    });
    const t = await requestToken(stack, c.clientId, c.clientSecret);
    return ((await t.json()) as { access_token: string }).access_token;
  };
  const call = (token: string, method: string, p: string, body?: unknown) =>
    stack.api(p, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });

  beforeAll(async () => {
    silentDns = await startDnsServer({ silent: true });
    [stack, pos] = await Promise.all([
      startStack({
        services: ['catalog', 'auth'],
        env: {
          RATE_LIMIT_ENABLED: 'false',
          OD_MERCHANT_FETCHES: String(FETCHES),
          OD_MERCHANT_FETCH_COOLDOWN: `${COOLDOWN_MS}ms`,
          // every name goes to a DNS server that never answers (the other stores use literal IPs)
          EGRESS_DNS_SERVERS: silentDns.address,
          EGRESS_DNS_TIMEOUT: `${DNS_TIMEOUT_MS}ms`,
        },
      }),
      officialExample().then((doc) => startHostilePos(JSON.stringify(doc))),
    ]);
  });
  afterAll(async () => {
    await pos?.close();
    await stack?.stop();
    await silentDns?.close();
  });

  it('drip, hang, flood and 20 calls a second: memory within the bound, other stores read fast', async () => {
    // the attackers: six stores, each onboarded at a hostile path
    const modes: Mode[] = ['drip', 'drip', 'hang', 'hang', 'flood', 'flood', 'json'];
    const attackers = await Promise.all(
      modes.map(async (mode, i) => {
        const store = await admin('/admin/v1/merchants', { name: `PDV hostil ${i}` });
        const token = await tokenOf(store.id, 'OPEN_DELIVERY');
        const put = await call(token, 'PUT', `/v1/merchantOnboarding?merchantId=${POS_ID}`, {
          getMerchantURL: { baseURL: `${pos.url}/${mode}/${i}` },
        });
        expect(put.status).toBe(201);
        return { mode, token, i };
      }),
    );
    // the neighbour: a store with a menu, read by its own credential
    const { merchantId } = await createMerchant(stack, { name: 'Vizinho' });
    const reader = await tokenOf(merchantId, 'SPEC');
    // a read's time less what other processes kept this thread from a CPU (the machine's load)
    const wallMs: number[] = [];
    const readMenu = async () => {
      const t0 = performance.now();
      const q0 = runQueueMs();
      const r = await call(reader, 'GET', `/v1/merchant/${merchantId}/menus`);
      await r.arrayBuffer();
      expect(r.status).toBe(200);
      wallMs.push(performance.now() - t0);
      return wallMs.at(-1)! - (runQueueMs() - q0);
    };
    // warm up (the validator loads on a first read; JIT), then the reads before the attack
    for (let i = 0; i < 20; i++) await readMenu();
    const quietLatencies: number[] = [];
    for (let i = 0; i < 40; i++) {
      quietLatencies.push(await readMenu());
      await new Promise((r) => setTimeout(r, 50));
    }
    const quietP95 = pct(quietLatencies, 0.95);
    const bound = (floor: number, factor: number, cap: number) =>
      Math.round(Math.min(Math.max(floor, factor * quietP95), cap));
    const readP95Bound = bound(READ_P95_MS, LOAD_P95, READ_P95_CAP_MS);
    const readMaxBound = bound(READ_MAX_MS, LOAD_MAX, READ_MAX_CAP_MS);
    await call(attackers[4].token, 'POST', '/v1/menuUpdated');
    await new Promise((r) => setTimeout(r, COOLDOWN_MS + 200));
    gc();
    const baseline = used();
    const rssBefore = process.memoryUsage().rss;

    let peak = baseline;
    let retained = baseline;
    let peakRss = rssBefore;
    const sampler = setInterval(() => {
      peak = Math.max(peak, used());
      peakRss = Math.max(peakRss, process.memoryUsage().rss);
    }, 20);
    // what cannot be collected: a full collection, then the same sum (every 2 s)
    const retainedSampler = setInterval(() => {
      gc();
      retained = Math.max(retained, used());
    }, 2_000);
    const answers: { mode: Mode; i: number; status: number; retryAfter: string | null; body: any }[] = [];
    const pending: Promise<void>[] = [];
    const end = Date.now() + ATTACK_MS;
    const fire = (a: (typeof attackers)[number]) =>
      pending.push(
        call(a.token, 'POST', '/v1/menuUpdated').then(async (r) => {
          const text = await r.text();
          answers.push({
            mode: a.mode,
            i: a.i,
            status: r.status,
            retryAfter: r.headers.get('retry-after'),
            body: text ? JSON.parse(text) : undefined,
          });
        }),
      );
    // (d): every attacker calls 4 times a second, the last flood store 20 times a second
    const loops = attackers.map(async (a) => {
      const every = a.i === 5 ? 50 : 250;
      while (Date.now() < end) {
        fire(a);
        await new Promise((r) => setTimeout(r, every));
      }
    });
    const latencies: number[] = [];
    const attackWall = wallMs.length;
    const reads = (async () => {
      while (Date.now() < end + 2_000) {
        latencies.push(await readMenu());
        await new Promise((r) => setTimeout(r, 50));
      }
    })();
    await Promise.all(loops);
    await Promise.all(pending);
    await reads;
    clearInterval(sampler);
    clearInterval(retainedSampler);

    const growth = retained - baseline;
    const figures = {
      baselineMiB: +(baseline / MiB).toFixed(1),
      peakMiB: +(peak / MiB).toFixed(1),
      rawGrowthMiB: +((peak - baseline) / MiB).toFixed(1),
      retainedPeakMiB: +(retained / MiB).toFixed(1),
      retainedGrowthMiB: +(growth / MiB).toFixed(1),
      boundMiB: MEMORY_BOUND / MiB,
      rawBoundMiB: RAW_BOUND / MiB,
      rssBeforeMiB: +(rssBefore / MiB).toFixed(1),
      peakRssMiB: +(peakRss / MiB).toFixed(1),
      calls: answers.length,
      byStatus: answers.reduce<Record<number, number>>((m, a) => {
        m[a.status] = (m[a.status] ?? 0) + 1;
        return m;
      }, {}),
      posReads: pos.reads,
      posMaxOpen: pos.maxOpen,
      menuReads: latencies.length,
      quietP95Ms: Math.round(quietP95),
      readP95BoundMs: readP95Bound,
      readMaxBoundMs: readMaxBound,
      menuP50Ms: Math.round(pct(latencies, 0.5)),
      menuP95Ms: Math.round(pct(latencies, 0.95)),
      menuMaxMs: Math.round(Math.max(...latencies)),
      menuWallP95Ms: Math.round(pct(wallMs.slice(attackWall), 0.95)),
      menuWallMaxMs: Math.round(Math.max(...wallMs.slice(attackWall))),
    };
    console.log('hostile point of sale:', JSON.stringify(figures));

    expect(growth).toBeLessThan(MEMORY_BOUND);
    expect(peak - baseline).toBeLessThan(RAW_BOUND);
    expect(figures.menuP95Ms).toBeLessThan(readP95Bound);
    expect(figures.menuMaxMs).toBeLessThan(readMaxBound);
    // never more reads open at the point of sale than the replica's slots
    expect(pos.maxOpen).toBeLessThanOrEqual(FETCHES);
    // a store reads at most once per (running read + cooldown): the 20-a-second caller included
    const perStore = (i: number) => pos.paths.filter((p) => p.endsWith(`/${i}`)).length;
    expect(perStore(5)).toBeLessThanOrEqual(Math.ceil(ATTACK_MS / COOLDOWN_MS) + 2);
    // what each got: 400 naming the problem, 429 / 503 with Retry-After, never a 500
    for (const a of answers) {
      expect([400, 429, 503]).toContain(a.status);
      if (a.status !== 400) expect(Number(a.retryAfter)).toBeGreaterThanOrEqual(1);
    }
    const failures = (mode: Mode) =>
      answers.filter((a) => a.mode === mode && a.status === 400).map((a) => a.body.title ?? a.body.message);
    expect(failures('flood').length).toBeGreaterThan(0);
    for (const t of failures('flood')) expect(t).toMatch(/passa de 1048576 bytes/);
    for (const t of [...failures('drip'), ...failures('hang')]) expect(t).toMatch(/timeout after 10000 ms/);
    for (const t of failures('json')) expect(t).toMatch(/schema Merchant/);
    expect(answers.some((a) => a.status === 429)).toBe(true);
    expect(answers.some((a) => a.status === 503)).toBe(true);
  }, 120_000);
  it('one read per store across replicas: calls meanwhile get 429 + Retry-After, then the cooldown, then a read', async () => {
    const replica = await stack.startService('catalog');
    try {
      const store = await admin('/admin/v1/merchants', { name: 'PDV lento' });
      const token = await tokenOf(store.id, 'OPEN_DELIVERY');
      const put = await call(token, 'PUT', `/v1/merchantOnboarding?merchantId=${POS_ID}`, {
        getMerchantURL: { baseURL: `${pos.url}/slow/s1` },
      });
      expect(put.status).toBe(201);
      const reads = () => pos.paths.filter((p) => p === '/slow/s1').length;
      const first = call(token, 'POST', '/v1/menuUpdated');
      await new Promise((r) => setTimeout(r, 300));
      // ten calls spread over both replicas (NATS queue group) while the read runs
      const during = await Promise.all(
        Array.from({ length: 10 }, () => call(token, 'POST', '/v1/menuUpdated')),
      );
      for (const r of during) {
        expect(r.status).toBe(429);
        const retry = Number(r.headers.get('retry-after'));
        expect(retry).toBeGreaterThanOrEqual(1);
        expect(retry).toBeLessThanOrEqual(10 + 15 + COOLDOWN_MS / 1000);
        expect((await r.json()).title).toMatch(/em andamento ou acabou de terminar/);
      }
      const done = await first;
      expect(done.status).toBe(400);
      expect((await done.json()).title).toMatch(/HTTP 404/);
      expect(reads()).toBe(1);
      // the cooldown: answered at once with the seconds left
      const cooling = await call(token, 'POST', '/v1/menuUpdated');
      expect(cooling.status).toBe(429);
      expect(Number(cooling.headers.get('retry-after'))).toBeLessThanOrEqual(COOLDOWN_MS / 1000);
      expect(reads()).toBe(1);
      await new Promise((r) => setTimeout(r, COOLDOWN_MS + 200));
      expect((await call(token, 'POST', '/v1/menuUpdated')).status).toBe(400);
      expect(reads()).toBe(2);
      // merchantStatus alone reads nothing: never limited here
      const status = await call(token, 'POST', '/v1/menuUpdated', { merchantStatus: 'UNAVAILABLE' });
      expect(status.status).toBe(204);
    } finally {
      await replica.stop();
    }
  }, 60_000);
  it("stores whose point of sale's DNS never answers fail at the DNS deadline; another store's read completes meanwhile", async () => {
    const onboard = async (name: string, baseURL: string) => {
      const store = await admin('/admin/v1/merchants', { name });
      const token = await tokenOf(store.id, 'OPEN_DELIVERY');
      const put = await call(token, 'PUT', `/v1/merchantOnboarding?merchantId=${POS_ID}`, {
        getMerchantURL: { baseURL },
      });
      expect(put.status).toBe(201);
      return token;
    };
    const port = new URL(pos.url).port;
    const hostile = await Promise.all(
      [0, 1, 2].map((i) => onboard(`PDV sem DNS ${i}`, `https://pdv-${i}.dns-lento.test:${port}/good/d${i}`)),
    );
    const good = await onboard('PDV bom', `${pos.url}/good/ok`);
    const started = performance.now();
    let firstHostileAnswer = Number.POSITIVE_INFINITY;
    const stuck = hostile.map((t) =>
      call(t, 'POST', '/v1/menuUpdated').then((r) => {
        firstHostileAnswer = Math.min(firstHostileAnswer, performance.now());
        return r;
      }),
    );
    await new Promise((r) => setTimeout(r, 200));
    const ok = await call(good, 'POST', '/v1/menuUpdated');
    const goodMs = performance.now() - started;
    expect(ok.status).toBe(204);
    // done while every hostile read was still waiting on its DNS
    expect(started + goodMs).toBeLessThan(firstHostileAnswer);
    for (const [i, r] of (await Promise.all(stuck)).entries()) {
      expect(r.status).toBe(400);
      const title = (await r.json()).title as string;
      expect(title).toContain(refusedHost(`pdv-${i}.dns-lento.test`));
    }
    const hostileMs = performance.now() - started;
    expect(hostileMs).toBeGreaterThanOrEqual(DNS_TIMEOUT_MS - 100);
    expect(hostileMs).toBeLessThan(DNS_TIMEOUT_MS + 5_000);
    expect(silentDns.queries.filter((q) => q.endsWith('.dns-lento.test')).length).toBeGreaterThanOrEqual(3);
    expect(pos.paths.filter((p) => p.startsWith('/good/d'))).toEqual([]);
  }, 60_000);
});
