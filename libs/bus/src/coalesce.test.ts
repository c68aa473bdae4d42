import { connect, type NatsConnection } from '@nats-io/transport-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publishSoon } from './coalesce.ts';

const turn = () => new Promise((r) => setImmediate(r));

describe('publishSoon', () => {
  it('runs the sends of one turn together in its check phase, once each and in order', async () => {
    const nc = {} as NatsConnection;
    const ran: string[] = [];
    publishSoon(nc, () => ran.push('a'));
    await Promise.resolve();
    publishSoon(nc, () => ran.push('b'));
    setTimeout(() => publishSoon(nc, () => ran.push('later')), 0);
    expect(ran).toEqual([]); // nothing before the check phase
    await turn();
    expect(ran).toEqual(['a', 'b']);
    await new Promise((r) => setTimeout(r, 5));
    await turn();
    expect(ran).toEqual(['a', 'b', 'later']);
  });

  it('keeps connections apart, and a send queued while flushing runs in the next turn', async () => {
    const [x, y] = [{} as NatsConnection, {} as NatsConnection];
    const ran: string[] = [];
    publishSoon(x, () => {
      ran.push('x1');
      publishSoon(x, () => ran.push('x2'));
    });
    publishSoon(y, () => ran.push('y1'));
    await turn();
    expect(ran).toEqual(['x1', 'y1']);
    await turn();
    expect(ran).toEqual(['x1', 'y1', 'x2']);
  });
});

describe('publishSoon (real NATS)', () => {
  let nc: NatsConnection;
  beforeAll(async () => {
    nc = await connect({ servers: process.env.NATS_URL ?? 'nats://127.0.0.1:4222', noAsyncTraces: true });
  });
  afterAll(async () => {
    await nc?.close();
  });

  it('the publishes of one turn reach nats-server in one socket write', async () => {
    const subject = `coalesce${process.pid}.${Date.now()}`;
    const got: number[] = [];
    nc.subscribe(subject, {
      callback: (_e, m) => {
        got.push(m.data[0]);
      },
    });
    await nc.flush();
    const socket = (
      nc as unknown as { protocol: { transport: { socket: { write: (...a: unknown[]) => boolean } } } }
    ).protocol.transport.socket;
    const write = socket.write;
    let writes = 0;
    socket.write = (...a: unknown[]) => {
      writes++;
      return write.apply(socket, a);
    };
    try {
      // three I/O callbacks of one turn, each publishing: without coalescing, three writes
      await new Promise<void>((resolve) => {
        let left = 3;
        for (let i = 0; i < 3; i++)
          setTimeout(() => {
            publishSoon(nc, () => nc.publish(subject, new Uint8Array([i])));
            if (--left === 0) resolve();
          }, 0);
      });
      await turn();
      await Promise.resolve();
      expect(writes).toBe(1);
    } finally {
      socket.write = write;
    }
    await nc.flush();
    expect(got).toEqual([0, 1, 2]);
  });
});
