import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { callRpc } from '@od/bus';
import { names } from '@od/contracts';
import { createPool, type Pool } from '@od/db';
import {
  ack,
  eventually,
  issueTestToken,
  type Publisher,
  poll,
  publisher,
  sleep,
  startStack,
  type TestStack,
} from '@od/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '..');

/** The feed service as its own process, exactly as `node services/feed` runs it in production. */
function spawnFeed(stack: TestStack): ChildProcess {
  const c = stack.config;
  return spawn(process.execPath, [path.join(ROOT, 'services/feed/bin.mjs')], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH,
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      DATABASE_URL: c.DATABASE_URL,
      NATS_URL: c.NATS_URL,
      NATS_PREFIX: c.NATS_PREFIX,
      REDIS_URL: c.REDIS_URL,
      JWT_SECRET: c.JWT_SECRET,
      ADMIN_TOKEN: c.ADMIN_TOKEN,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}

describe('event feed survives a crash of the feed process', () => {
  let stack: TestStack;
  let pub: Publisher;
  let pool: Pool;
  const children: ChildProcess[] = [];
  beforeAll(async () => {
    stack = await startStack({ services: [] });
    pub = await publisher(stack);
    pool = createPool(stack.config.DATABASE_URL, 'feed', 2);
  });
  afterAll(async () => {
    for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
    await pool?.end();
    await pub?.close();
    await stack?.stop();
  });

  const healthy = async () => {
    try {
      const r = await callRpc(pub.nc, names(stack.prefix).rpc('feed', 'health'), { traceId: 't' }, 500);
      return r.status === 200;
    } catch {
      return false;
    }
  };
  const storedEvents = async () => {
    try {
      return (await pool.query('SELECT count(*)::int AS n FROM events')).rows[0].n as number;
    } catch {
      return 0; // schema not migrated yet
    }
  };

  it('SIGKILL mid-stream, restart: every feed has every event exactly once', {
    timeout: 120_000,
  }, async () => {
    const storeA = randomUUID();
    const storeB = randomUUID();
    const a1 = await issueTestToken(stack, { merchantId: storeA, scopes: ['orders:read'] });
    const a2 = await issueTestToken(stack, {
      merchantId: storeA,
      scopes: ['orders:read'],
      record: { includeMarketplaceOrders: false },
    });
    const b1 = await issueTestToken(stack, { merchantId: storeB, scopes: ['orders:read'] });
    await sleep(5);
    const expected = new Map<string, string[]>([
      [a1.clientId, []],
      [a2.clientId, []],
      [b1.clientId, []],
    ]);
    const publishMany = async (n: number) => {
      for (let i = 0; i < n; i++) {
        const store = i % 3 === 2 ? storeB : storeA;
        const channel = i % 5 === 0 ? 'MARKETPLACE' : 'APP';
        const e = await pub.publish(store, { channel });
        if (store === storeB) expected.get(b1.clientId)?.push(e.eventId);
        else {
          expected.get(a1.clientId)?.push(e.eventId);
          if (channel !== 'MARKETPLACE') expected.get(a2.clientId)?.push(e.eventId);
        }
      }
    };
    await publishMany(1500);

    const first = spawnFeed(stack);
    children.push(first);
    const stored = await eventually(storedEvents, (n) => n >= 200, 60_000);
    expect(stored).toBeGreaterThanOrEqual(200);
    first.kill('SIGKILL');
    await new Promise((r) => first.once('exit', r));
    const atKill = await storedEvents();
    expect(atKill).toBeLessThan(1500); // really mid-stream
    await publishMany(300); // events published while no feed process runs

    const second = spawnFeed(stack);
    children.push(second);
    await eventually(healthy, (ok) => ok, 30_000);
    expect(await eventually(storedEvents, (n) => n === 1800, 60_000)).toBe(1800);

    // drain every feed through the public API: each expected event exactly once, nothing else
    for (const c of [a1, a2, b1]) {
      const seen: string[] = [];
      for (;;) {
        const page = await poll(stack, c.token, '?limit=200');
        if (page.length === 0) break;
        seen.push(...page.map((e) => e.eventId));
        const r = await ack(
          stack,
          c.token,
          page.map((e) => e.eventId),
        );
        expect((await r.json()).acknowledged).toBe(page.length);
      }
      const want = expected.get(c.clientId) ?? [];
      expect(new Set(seen).size).toBe(seen.length);
      expect([...seen].sort()).toEqual([...want].sort());
    }
    second.kill('SIGTERM');
    await new Promise((r) => second.once('exit', r));
  });
});
