import { describe, expect, it } from 'vitest';
import { type CachedStore, StoreCache } from './store-cache.ts';

const enc = new TextEncoder();
const dec = new TextDecoder();
const rendered = (v: string): CachedStore => ({
  merchant: enc.encode(v),
  menus: enc.encode(`[${v}]`),
  snapshot: enc.encode(v),
});

function setup(opts: { ttlMs?: number; maxBytes?: number } = {}) {
  const db = new Map<string, string>();
  let clock = 0;
  let loads = 0;
  let gate: Promise<void> | undefined;
  const cache = new StoreCache(
    async (id) => {
      loads++;
      const v = db.get(id);
      await gate;
      return v === undefined ? null : rendered(v);
    },
    { ttlMs: opts.ttlMs ?? 1000, maxBytes: opts.maxBytes ?? 10_000, now: () => clock },
  );
  const read = async (id: string) => {
    const r = await cache.get(id);
    return r ? dec.decode(r.merchant) : null;
  };
  return {
    db,
    cache,
    read,
    tick: (ms: number) => {
      clock += ms;
    },
    loads: () => loads,
    hold: () => {
      let release!: () => void;
      gate = new Promise((r) => {
        release = r;
      });
      return () => {
        gate = undefined;
        release();
      };
    },
  };
}

describe('StoreCache', () => {
  it('loads once, serves from memory, reloads after invalidation', async () => {
    const t = setup();
    t.db.set('a', 'v1');
    expect(await t.read('a')).toBe('v1');
    t.db.set('a', 'v2');
    expect(await t.read('a')).toBe('v1');
    expect(t.loads()).toBe(1);
    t.cache.invalidate('a');
    expect(await t.read('a')).toBe('v2');
    expect(t.loads()).toBe(2);
  });

  it('an answer true until a pause ends is not served after it, whatever the TTL', async () => {
    let until: number | undefined = 50;
    let v = 'paused';
    let clock = 0;
    const cache = new StoreCache(
      async () => ({ ...rendered(v), ...(until === undefined ? {} : { until }) }),
      {
        ttlMs: 1000,
        maxBytes: 10_000,
        now: () => clock,
      },
    );
    const read = async () => dec.decode((await cache.get('a'))?.merchant);
    expect(await read()).toBe('paused');
    v = 'open';
    until = undefined;
    clock = 49;
    expect(await read()).toBe('paused');
    clock = 50;
    expect(await read()).toBe('open');
    clock = 900;
    expect(await read()).toBe('open');
  });

  it('does not cache unknown stores', async () => {
    const t = setup();
    expect(await t.read('x')).toBeNull();
    t.db.set('x', 'new');
    expect(await t.read('x')).toBe('new');
  });

  it('expires entries after the TTL', async () => {
    const t = setup({ ttlMs: 100 });
    t.db.set('a', 'v1');
    await t.read('a');
    t.db.set('a', 'v2');
    t.tick(99);
    expect(await t.read('a')).toBe('v1');
    t.tick(1);
    expect(await t.read('a')).toBe('v2');
  });

  it('never stores a load that raced with an invalidation', async () => {
    const t = setup();
    t.db.set('a', 'old');
    const release = t.hold();
    const pending = t.read('a'); // read the old row, still in flight
    t.db.set('a', 'new');
    t.cache.invalidate('a'); // the edit's broadcast arrives meanwhile
    release();
    expect(await pending).toBe('old');
    expect(await t.read('a')).toBe('new');
  });

  it('keeps within its byte budget, dropping the oldest entries; never holds an oversized one', async () => {
    // each entry of a one-character value holds 1 + 3 + 1 = 5 bytes
    const t = setup({ maxBytes: 10 });
    for (const id of ['a', 'b', 'c']) t.db.set(id, id);
    await t.read('a');
    await t.read('b');
    await t.read('c');
    expect(t.cache.size).toBe(2);
    expect(t.cache.heldBytes).toBe(10);
    const before = t.loads();
    await t.read('c');
    await t.read('b');
    expect(t.loads()).toBe(before);
    await t.read('a');
    expect(t.loads()).toBe(before + 1);
    t.db.set('big', 'x'.repeat(20));
    expect(await t.read('big')).toBe('x'.repeat(20));
    expect(t.cache.heldBytes).toBe(10);
    t.cache.invalidate('a');
    expect(t.cache.heldBytes).toBe(5);
  });

  it('clear drops everything', async () => {
    const t = setup();
    t.db.set('a', 'v1');
    await t.read('a');
    t.cache.clear();
    t.db.set('a', 'v2');
    expect(await t.read('a')).toBe('v2');
  });
});
