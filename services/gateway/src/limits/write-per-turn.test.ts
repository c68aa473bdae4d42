import { currentInfra } from '@od/testing';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeWithTurn } from './write-per-turn.ts';

type Writes = { _write: (...a: unknown[]) => void; _writev: (...a: unknown[]) => void };

describe('writeWithTurn (real Redis)', () => {
  let redis: Redis;
  beforeAll(async () => {
    redis = new Redis(currentInfra().redisUrl);
    await redis.ping();
  });
  afterAll(() => redis.disconnect());

  it('the commands of one turn leave in one socket write, and every one is answered', async () => {
    const s = redis.stream as unknown as Writes;
    const [write, writev] = [s._write, s._writev];
    let writes = 0;
    s._write = (...a) => {
      writes++;
      write.apply(s, a);
    };
    s._writev = (...a) => {
      writes++;
      writev.apply(s, a);
    };
    try {
      // three I/O callbacks of one turn, each sending a command
      const replies = await new Promise<Promise<string>[]>((resolve) => {
        const out: Promise<string>[] = [];
        for (let i = 0; i < 3; i++)
          setTimeout(() => {
            writeWithTurn(redis);
            out.push(redis.echo(`r${i}`));
            if (out.length === 3) resolve(out);
          }, 0);
      });
      expect(await Promise.all(replies)).toEqual(['r0', 'r1', 'r2']);
      expect(writes).toBe(1);
      expect(redis.stream.writableCorked).toBe(0);
    } finally {
      [s._write, s._writev] = [write, writev];
    }
  });
});
