import { randomUUID } from 'node:crypto';
import {
  connect,
  type Msg,
  type MsgHdrs,
  type NatsConnection,
  headers as natsHeaders,
} from '@nats-io/transport-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeHeaders, forEachHeader, headerOf, traceCarrierOf } from './wire-headers.ts';

const dec = new TextDecoder();
// what nats.js's publish calls on a message's headers
const wire = (h: MsgHdrs) => dec.decode((h as unknown as { encode(): Uint8Array }).encode());
const H = { 'od-sig': 'mac.gateway.AbC-_1', 'x-status': '200', 'x-h-Retry-After': ' 5 ' };

describe('wire headers', () => {
  it('encodes what nats.js encodes for the same headers', () => {
    const theirs = natsHeaders();
    for (const [k, v] of Object.entries(H)) theirs.set(k, v);
    const mine = encodeHeaders(H);
    expect(wire(mine.nats)).toBe(wire(theirs));
    expect(mine.length).toBe(Buffer.byteLength(wire(theirs)));
  });

  it('refuses what nats.js refuses: a CR/LF in a value, a bad header name', () => {
    expect(() => encodeHeaders({ a: 'x\r\nb: y' })).toThrow();
    expect(() => encodeHeaders({ 'a b': 'x' })).toThrow();
    expect(() => encodeHeaders({ 'a:b': 'x' })).toThrow();
  });

  describe('read from a real message (NATS)', () => {
    let nc: NatsConnection;
    beforeAll(async () => {
      nc = await connect({ servers: process.env.NATS_URL ?? 'nats://127.0.0.1:4222', noAsyncTraces: true });
    });
    afterAll(async () => {
      await nc?.close();
    });
    const roundTrip = async (publish: (subject: string) => void): Promise<Msg> => {
      const subject = `wh${randomUUID().slice(0, 8)}`;
      const got = new Promise<Msg>((resolve) =>
        nc.subscribe(subject, { max: 1, callback: (_e, m) => resolve(m) }),
      );
      await nc.flush();
      publish(subject);
      return got;
    };

    it('gives the values msg.headers gives (first of a repeated header, trimmed), and no header when none', async () => {
      const h = natsHeaders();
      for (const [k, v] of Object.entries(H)) h.set(k, v);
      h.append('x-status', '500');
      const m = await roundTrip((s) => nc.publish(s, 'x', { headers: h }));
      const mine: [string, string][] = [];
      forEachHeader(m, (k, v) => {
        mine.push([k, v]);
        return false;
      });
      const theirs = [...(m.headers ?? [])].flatMap(([k, vs]) => vs.map((v) => [k, v]));
      expect(mine).toEqual(theirs);
      for (const k of Object.keys(H)) expect(headerOf(m, k)).toBe(m.headers?.get(k));
      expect(headerOf(m, 'absent')).toBeUndefined();
      expect(dec.decode(m.data)).toBe('x');

      const bare = await roundTrip((s) => nc.publish(s, 'y'));
      expect(headerOf(bare, 'od-sig')).toBeUndefined();
    });

    it('the trace context: what msg.headers gives for traceparent and tracestate, nothing without a traceparent', async () => {
      const tp = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';
      const m = await roundTrip((s) =>
        nc.publish(s, 'x', { headers: encodeHeaders({ ...H, traceparent: tp, tracestate: 'a=1' }).nats }),
      );
      const c = traceCarrierOf(m);
      for (const k of ['traceparent', 'tracestate', 'od-sig'])
        expect(c?.get(k)).toBe(k === 'od-sig' ? undefined : m.headers?.get(k));
      expect(c?.get('traceparent')).toBe(tp);
      const onlyState = await roundTrip((s) =>
        nc.publish(s, 'x', { headers: encodeHeaders({ ...H, tracestate: 'a=1' }).nats }),
      );
      expect(traceCarrierOf(onlyState)).toBeUndefined();
      expect(traceCarrierOf(await roundTrip((s) => nc.publish(s, 'y')))).toBeUndefined();
    });

    it('encoded headers arrive as nats.js would read them', async () => {
      const m = await roundTrip((s) => nc.publish(s, 'z', { headers: encodeHeaders(H).nats }));
      expect(Object.fromEntries([...(m.headers ?? [])].map(([k, v]) => [k, v[0]]))).toEqual({
        ...H,
        'x-h-Retry-After': '5',
      });
    });
  });
});
