import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ackIds, parseEventMessage, pollLimit, receives } from './rules.ts';

const m = randomUUID();
const cred = {
  merchantId: m,
  status: 'ACTIVE' as const,
  createdAt: '2026-01-01T00:00:00.000Z',
  includeMarketplaceOrders: true,
};
const ev = { merchantId: m, channel: 'APP', createdAt: '2026-01-01T00:00:00.001Z' };

describe('feed rules', () => {
  it('routes an event to credentials of its store created no later than the event', () => {
    expect(receives(cred, ev)).toBe(true);
    expect(receives(cred, { ...ev, createdAt: cred.createdAt })).toBe(true);
    expect(receives(cred, { ...ev, createdAt: '2025-12-31T23:59:59.999Z' })).toBe(false);
    expect(receives(cred, { ...ev, merchantId: randomUUID() })).toBe(false);
    expect(receives({ ...cred, merchantId: m.toUpperCase() }, ev)).toBe(true);
  });
  it('skips revoked credentials but not paused ones', () => {
    expect(receives({ ...cred, status: 'REVOKED' }, ev)).toBe(false);
    expect(receives({ ...cred, status: 'PAUSED' }, ev)).toBe(true);
  });
  it('filters marketplace orders by the credential flag', () => {
    const mp = { ...ev, channel: 'MARKETPLACE' };
    expect(receives(cred, mp)).toBe(true);
    expect(receives({ ...cred, includeMarketplaceOrders: false }, mp)).toBe(false);
    expect(receives({ ...cred, includeMarketplaceOrders: false }, ev)).toBe(true);
  });
  it('accepts limit 1..200 (default 100) and nothing else', () => {
    expect(pollLimit(undefined)).toBe(100);
    expect(pollLimit('1')).toBe(1);
    expect(pollLimit(200)).toBe(200);
    for (const bad of ['0', '201', '-1', '1.5', 'abc', ' 5', 1.5, 0, 201, ['1'], {}])
      expect(pollLimit(bad)).toBeUndefined();
    fc.assert(
      fc.property(fc.integer(), (n) => {
        const r = pollLimit(String(n));
        return n >= 1 && n <= 200 ? r === n : r === undefined;
      }),
    );
  });
  it('reads acknowledgment ids, deduplicated, case-insensitively', () => {
    const id = randomUUID();
    expect(ackIds([{ id }, { id: id.toUpperCase() }])).toEqual([id]);
    expect(ackIds([])).toEqual([]);
    expect(ackIds({ id })).toBeNull();
    expect(ackIds([{ id }, {}])).toBeNull();
    expect(ackIds([{ id: 'x' }])).toBeNull();
    expect(ackIds([null])).toBeNull();
  });
  it('keeps the envelope exactly as published and rejects unreadable messages', () => {
    const envelope = {
      eventId: randomUUID(),
      eventType: 'CANCELLED',
      orderId: randomUUID(),
      orderURL: 'https://x/v1/orders/1',
      createdAt: '2026-01-01T00:00:00.000Z',
      metadata: { reason: 'r', code: 'OTHER_CANCELLATION_REASON' },
    };
    const r = parseEventMessage({ merchantId: m, channel: 'APP', orderSeq: 1, envelope });
    expect(r).toMatchObject({
      eventId: envelope.eventId,
      merchantId: m,
      channel: 'APP',
      eventType: 'CANCELLED',
    });
    expect('envelopeText' in r && JSON.parse(r.envelopeText)).toEqual(envelope);
    expect('envelopeText' in r && r.envelopeText).toBe(JSON.stringify(envelope));
    expect(parseEventMessage({ merchantId: m, envelope })).toHaveProperty('error');
    expect(
      parseEventMessage({ merchantId: m, channel: 'APP', envelope: { ...envelope, createdAt: 'x' } }),
    ).toHaveProperty('error');
    expect(parseEventMessage('nope')).toHaveProperty('error');
  });
});
