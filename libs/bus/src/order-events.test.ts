import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { parseOrderEvent } from './order-events.ts';

const bytes = (v: unknown) => new TextEncoder().encode(typeof v === 'string' ? v : JSON.stringify(v));
const m = randomUUID();
const envelope = {
  eventId: randomUUID(),
  eventType: 'CANCELLED',
  orderId: randomUUID(),
  orderURL: 'https://x/v1/orders/1',
  createdAt: '2026-01-01T00:00:00.000Z',
  metadata: { reason: 'r', code: 'OTHER_CANCELLATION_REASON' },
};

describe('order-event messages', () => {
  it('keeps the envelope exactly as published and lowercases ids', () => {
    const r = parseOrderEvent(
      bytes({ merchantId: m.toUpperCase(), channel: 'APP', orderSeq: 1, envelope: { ...envelope } }),
    );
    expect(r).toMatchObject({
      eventId: envelope.eventId,
      merchantId: m,
      channel: 'APP',
      eventType: 'CANCELLED',
      orderSeq: 1,
    });
    expect('envelopeText' in r && r.envelopeText).toBe(JSON.stringify(envelope));
  });
  it('keeps a positive integer orderSeq and reads anything else as none', () => {
    const seq = (orderSeq: unknown) => {
      const r = parseOrderEvent(bytes({ merchantId: m, channel: 'APP', orderSeq, envelope }));
      return 'error' in r ? r.error : r.orderSeq;
    };
    expect([seq(7), seq(undefined), seq(0), seq(-2), seq(1.5), seq('3')]).toEqual([
      7,
      null,
      null,
      null,
      null,
      null,
    ]);
  });
  it('refuses what cannot be stored or routed, saying why', () => {
    const ok = { merchantId: m, channel: 'APP', orderSeq: 1, envelope };
    const bad: [unknown, string][] = [
      ['nope', 'not JSON'],
      [null, 'merchantId'],
      [{ ...ok, merchantId: 'x' }, 'merchantId'],
      [{ ...ok, channel: 'FAX' }, 'channel'],
      [{ ...ok, envelope: undefined }, 'envelope'],
      [{ ...ok, envelope: { ...envelope, eventId: 'x' } }, 'eventId'],
      [{ ...ok, envelope: { ...envelope, orderId: 1 } }, 'orderId'],
      [{ ...ok, envelope: { ...envelope, eventType: '' } }, 'eventType'],
      [{ ...ok, envelope: { ...envelope, createdAt: 'yesterday' } }, 'createdAt'],
    ];
    for (const [v, field] of bad) {
      const r = parseOrderEvent(bytes(v));
      expect('error' in r && r.error).toContain(field);
    }
    expect(parseOrderEvent(new Uint8Array([0xff, 0xfe]))).toEqual({ error: 'not JSON' });
  });
});
