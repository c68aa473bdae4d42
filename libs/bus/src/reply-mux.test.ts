import { randomUUID } from 'node:crypto';
import { connect, type NatsConnection, errors as natsErrors } from '@nats-io/transport-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type OwnServer, ownNats } from '../../../scripts/chaos/servers.ts';
import { connectBus } from './connect.ts';
import { replyMux, SWEEP_MS } from './reply-mux.ts';

const enc = new TextEncoder();
const dec = new TextDecoder();
const subject = (s: string) => `mux${randomUUID().slice(0, 8)}.${s}`;
// answered and timed-out requests leave the map: nothing grows with traffic
const pendingOf = (nc: NatsConnection) => replyMux(nc).pending();

describe('reply mux (real NATS)', () => {
  let nc: NatsConnection;
  beforeAll(async () => {
    nc = await connect({ servers: process.env.NATS_URL ?? 'nats://127.0.0.1:4222', noAsyncTraces: true });
  });
  afterAll(async () => {
    await nc?.close();
  });

  it('routes each reply to its own request, many in flight at once', async () => {
    const s = subject('echo');
    // answers in reverse order of arrival: a mux that paired by order would mix them up
    const held: { respond: () => void }[] = [];
    nc.subscribe(s, {
      callback: (_e, m) => {
        held.push({ respond: () => m.respond(m.data) });
        if (held.length === 50) for (const h of held.reverse()) h.respond();
      },
    });
    await nc.flush();
    const replies = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        replyMux(nc)
          .request(s, enc.encode(`r${i}`), undefined, 5000)
          .then((m) => dec.decode(m.data)),
      ),
    );
    expect(replies).toEqual(Array.from({ length: 50 }, (_, i) => `r${i}`));
    expect(pendingOf(nc)).toBe(0);
  });

  it('nobody serves the subject: NoRespondersError at once', async () => {
    const t0 = Date.now();
    await expect(replyMux(nc).request(subject('nobody'), enc.encode('x'), undefined, 5000)).rejects.toThrow(
      natsErrors.NoRespondersError,
    );
    expect(Date.now() - t0).toBeLessThan(2000);
  });

  it('a served subject that never answers: TimeoutError after the timeout, a late reply is dropped', async () => {
    const s = subject('silent');
    let late: (() => void) | undefined;
    nc.subscribe(s, {
      callback: (_e, m) => {
        late = () => m.respond(enc.encode('late'));
      },
    });
    await nc.flush();
    const t0 = Date.now();
    await expect(replyMux(nc).request(s, enc.encode('x'), undefined, 300)).rejects.toThrow(
      natsErrors.TimeoutError,
    );
    const took = Date.now() - t0;
    expect(took).toBeGreaterThanOrEqual(290);
    expect(took).toBeLessThan(300 + SWEEP_MS + 1500);
    late?.();
    await nc.flush();
    expect(pendingOf(nc)).toBe(0);
  });
});

describe('reply mux while the connection is down (own nats-server)', () => {
  let server: OwnServer;
  let nc: NatsConnection;
  beforeAll(async () => {
    server = await ownNats();
    nc = await connectBus(server.url, 'mux-test');
  });
  afterAll(async () => {
    await nc?.close();
    await server?.destroy();
  });

  it('fails requests in flight when the connection drops, and new ones at once, until it is back', async () => {
    const s = subject('hang');
    const echo = subject('echo');
    nc.subscribe(s, { callback: () => {} }); // never answers
    nc.subscribe(echo, {
      callback: (_e, m) => {
        m.respond(m.data);
      },
    });
    await nc.flush();
    const inFlight = expect(replyMux(nc).request(s, enc.encode('x'), undefined, 30_000)).rejects.toThrow(
      natsErrors.NoRespondersError,
    );
    const t0 = Date.now();
    await server.stop();
    await inFlight;
    expect(Date.now() - t0).toBeLessThan(10_000);
    const t1 = Date.now();
    await expect(replyMux(nc).request(echo, enc.encode('x'), undefined, 30_000)).rejects.toThrow(
      natsErrors.NoRespondersError,
    );
    expect(Date.now() - t1).toBeLessThan(100);
    // back: the subscriptions (the mux's own included) are restored with the connection
    await server.start();
    let answer = '';
    for (let i = 0; !answer; i++) {
      try {
        answer = dec.decode((await replyMux(nc).request(echo, enc.encode('back'), undefined, 1000)).data);
      } catch (e) {
        if (i > 100) throw e;
        await new Promise((r) => setTimeout(r, 100));
      }
    }
    expect(answer).toBe('back');
  }, 60_000);
});
