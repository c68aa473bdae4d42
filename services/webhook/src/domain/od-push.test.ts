import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { newEventUrl, odPush, odSignature } from './od-push.ts';

const envelope = (eventType: string) =>
  JSON.stringify({
    eventId: 'b1c1a9f8-3a57-4a53-8f0c-8d0f3c2f6a11',
    eventType,
    orderId: 'a4e0d0c6-2a4c-4bd7-9a0e-3f35b8c1d2e3',
    orderURL: 'https://api.example/v1/orders/a4e0d0c6-2a4c-4bd7-9a0e-3f35b8c1d2e3',
    createdAt: '2026-11-23T22:00:00.000Z',
    sourceAppId: 'odc_0123456789abcdef01234567',
  });
const base = {
  webhookUrl: 'https://pdv.example.com/od',
  clientSecret: 'segredo-do-cliente',
  appId: '3f6c2a1e-8b4d-4f7a-9c2e-5d1b7a9e0c41',
  merchantId: '5e1c3c6a-1b2d-4e5f-8a9b-0c1d2e3f4a5b',
};

describe('Open Delivery newEvent push', () => {
  it('posts to {url}/v1/newEvent, whatever the trailing slash, once', () => {
    expect(newEventUrl('https://pdv.example.com')).toBe('https://pdv.example.com/v1/newEvent');
    expect(newEventUrl('https://pdv.example.com/od/')).toBe('https://pdv.example.com/od/v1/newEvent');
    expect(newEventUrl('https://pdv.example.com/od/v1/newEvent')).toBe(
      'https://pdv.example.com/od/v1/newEvent',
    );
    expect(newEventUrl('https://pdv.example.com/od?loja=1')).toBe(
      'https://pdv.example.com/od/v1/newEvent?loja=1',
    );
  });

  it('signs the exact body bytes: lowercase hex HMAC-SHA256 keyed with the client secret', () => {
    const p = odPush({ ...base, envelopeText: envelope('CONFIRMED') });
    expect(p).not.toBeNull();
    const { body, headers, url } = p as NonNullable<typeof p>;
    expect(url).toBe('https://pdv.example.com/od/v1/newEvent');
    expect(headers['x-app-signature']).toMatch(/^[0-9a-f]{64}$/);
    expect(headers['x-app-signature']).toBe(
      createHmac('sha256', base.clientSecret).update(body).digest('hex'),
    );
    expect(headers['x-app-signature']).not.toBe(odSignature('outro-segredo', body));
    expect(headers['x-app-id']).toBe(base.appId);
    expect(headers['x-app-merchantid']).toBe(base.merchantId);
    // the standard's event: CONFIRMED carries metadata, the client id travels as metadata.clientId,
    // sourceAppId is this ordering application's AppId
    expect(JSON.parse(body)).toEqual({
      eventId: 'b1c1a9f8-3a57-4a53-8f0c-8d0f3c2f6a11',
      eventType: 'CONFIRMED',
      orderId: 'a4e0d0c6-2a4c-4bd7-9a0e-3f35b8c1d2e3',
      orderURL: 'https://api.example/v1/orders/a4e0d0c6-2a4c-4bd7-9a0e-3f35b8c1d2e3',
      createdAt: '2026-11-23T22:00:00.000Z',
      sourceAppId: base.appId,
      metadata: { clientId: 'odc_0123456789abcdef01234567' },
    });
  });

  it('a non-ASCII body is signed over its UTF-8 bytes', () => {
    expect(odSignature('k', 'ção')).toBe(
      createHmac('sha256', 'k').update(Buffer.from('ção', 'utf8')).digest('hex'),
    );
  });

  it('maps the courier delivery to DELIVERED and leaves out events the standard has no type for', () => {
    const delivered = odPush({ ...base, envelopeText: envelope('COURIER_DELIVERED') });
    expect(JSON.parse(delivered?.body ?? '{}').eventType).toBe('DELIVERED');
    expect(odPush({ ...base, envelopeText: envelope('PREPARING') })).toBeNull();
    expect(odPush({ ...base, envelopeText: envelope('MODIFIED') })).toBeNull();
  });
});
