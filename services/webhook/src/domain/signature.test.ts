import { randomBytes, randomUUID } from 'node:crypto';
import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { sign, webhookHeaders } from './signature.ts';

const newSecret = () => `whsec_${randomBytes(32).toString('base64')}`;
const body = JSON.stringify({
  eventId: randomUUID(),
  eventType: 'CREATED',
  orderId: randomUUID(),
  orderURL: 'https://api.test.local/v1/orders/x',
  createdAt: '2026-11-22T15:00:00.000Z',
  metadata: { note: 'ação ✓' },
});

describe('webhook signature (Standard Webhooks)', () => {
  it('verifies with the unmodified standardwebhooks package', () => {
    const secret = newSecret();
    const eventId = randomUUID();
    const ts = Math.floor(Date.now() / 1000);
    const h = webhookHeaders({
      secrets: [secret],
      eventId,
      merchantId: randomUUID(),
      timestamp: ts,
      rawBody: body,
    });
    expect(new Webhook(secret).verify(body, h)).toEqual(JSON.parse(body));
    expect(h['webhook-id']).toBe(eventId);
    expect(h['x-service-event-id']).toBe(eventId);
    expect(h['x-service-timestamp']).toBe(String(ts));
    expect(h['x-service-signature']).toBe(h['webhook-signature']);
    expect(h['x-service-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
  });

  it('verifies through the X-Service-* headers mapped onto the standard names', () => {
    const secret = newSecret();
    const h = webhookHeaders({
      secrets: [secret],
      eventId: randomUUID(),
      merchantId: randomUUID(),
      timestamp: Math.floor(Date.now() / 1000),
      rawBody: body,
    });
    const mapped = {
      'webhook-id': h['x-service-event-id'],
      'webhook-timestamp': h['x-service-timestamp'],
      'webhook-signature': h['x-service-signature'],
    };
    expect(() => new Webhook(secret).verify(body, mapped)).not.toThrow();
  });

  it('rejects a changed body, another secret, another event id and an old timestamp', () => {
    const secret = newSecret();
    const eventId = randomUUID();
    const now = Math.floor(Date.now() / 1000);
    const h = webhookHeaders({
      secrets: [secret],
      eventId,
      merchantId: randomUUID(),
      timestamp: now,
      rawBody: body,
    });
    const wh = new Webhook(secret);
    expect(() => wh.verify(`${body} `, h)).toThrow(WebhookVerificationError);
    expect(() => new Webhook(newSecret()).verify(body, h)).toThrow(WebhookVerificationError);
    expect(() => wh.verify(body, { ...h, 'webhook-id': randomUUID() })).toThrow(WebhookVerificationError);
    const old = webhookHeaders({
      secrets: [secret],
      eventId,
      merchantId: randomUUID(),
      timestamp: now - 6 * 60,
      rawBody: body,
    });
    expect(() => wh.verify(body, old)).toThrow(WebhookVerificationError);
  });

  it('during rotation sends both signatures, each verifiable with its own secret', () => {
    const [next, prev] = [newSecret(), newSecret()];
    const eventId = randomUUID();
    const ts = Math.floor(Date.now() / 1000);
    const h = webhookHeaders({
      secrets: [next, prev],
      eventId,
      merchantId: randomUUID(),
      timestamp: ts,
      rawBody: body,
    });
    const parts = h['x-service-signature'].split(' ');
    expect(parts).toEqual([sign(next, eventId, ts, body), sign(prev, eventId, ts, body)]);
    expect(() => new Webhook(next).verify(body, h)).not.toThrow();
    expect(() => new Webhook(prev).verify(body, h)).not.toThrow();
  });

  it('is deterministic: content is eventId.timestamp.body under HMAC-SHA256', async () => {
    const { createHmac } = await import('node:crypto');
    const key = randomBytes(24);
    const secret = `whsec_${key.toString('base64')}`;
    const expected = createHmac('sha256', key).update(`e1.1700000000.${body}`).digest('base64');
    expect(sign(secret, 'e1', 1700000000, body)).toBe(`v1,${expected}`);
    expect(() =>
      webhookHeaders({ secrets: [], eventId: 'e', merchantId: 'm', timestamp: 1, rawBody: '' }),
    ).toThrow();
  });
});
