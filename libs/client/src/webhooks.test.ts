import { createHmac, randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { verifyWebhook, WebhookVerificationError } from './webhooks.ts';

// Signatures made by an independent implementation (the Standard Webhooks library) and by the
// standard's X-App-Signature rule; the deliveries of the real webhook service are verified in
// stack.test.ts.
const secret = `whsec_${randomBytes(24).toString('base64')}`;
const body = JSON.stringify({ eventId: 'e1', eventType: 'CREATED', orderId: 'o1', orderURL: 'https://x/o1' });

function signed(ts: number, s = secret, id = 'e1', payload = body) {
  const sig = new Webhook(s).sign(id, new Date(ts * 1000), payload);
  return { 'webhook-id': id, 'webhook-timestamp': String(ts), 'webhook-signature': sig };
}

describe('verifyWebhook', () => {
  const now = Math.floor(Date.now() / 1000);

  it('accepts a Standard Webhooks signature on the raw body (string or bytes, any header casing)', () => {
    expect(verifyWebhook(body, signed(now), secret)).toMatchObject({ eventId: 'e1' });
    expect(verifyWebhook(Buffer.from(body), new Headers(signed(now)), secret)).toMatchObject({
      eventId: 'e1',
    });
    const h = signed(now);
    const legacy = {
      'X-Service-Event-Id': h['webhook-id'],
      'X-Service-Timestamp': h['webhook-timestamp'],
      'X-Service-Signature': h['webhook-signature'],
    };
    expect(verifyWebhook(body, legacy, secret)).toMatchObject({ eventId: 'e1' });
  });

  it('accepts any signature of a rotation list, refuses tampering, a wrong secret and stale timestamps', () => {
    const other = `whsec_${randomBytes(24).toString('base64')}`;
    const rotation = {
      ...signed(now),
      'webhook-signature': `${signed(now, other)['webhook-signature']} ${signed(now)['webhook-signature']}`,
    };
    expect(verifyWebhook(body, rotation, secret)).toMatchObject({ eventId: 'e1' });
    const bad: [string, Record<string, string>, string][] = [
      [body.replace('CREATED', 'CANCELLED'), signed(now), secret],
      [body, signed(now), other],
      [body, { ...signed(now), 'webhook-id': 'e2' }, secret],
      [body, signed(now - 301), secret],
      [body, signed(now + 301), secret],
      [body, { ...signed(now), 'webhook-signature': 'v1,' }, secret],
      [body, {}, secret],
    ];
    // the verifier's clock pinned to `now` (a loaded machine may run this seconds after `now` was read)
    const at = { now: now * 1000 };
    for (const [b, h, s] of bad) expect(() => verifyWebhook(b, h, s, at)).toThrow(WebhookVerificationError);
    expect(verifyWebhook(body, signed(now - 299), secret, at)).toBeTruthy();
    expect(verifyWebhook(body, signed(now + 299), secret, at)).toBeTruthy();
    expect(() => verifyWebhook(body, signed(now - 100), secret, { ...at, toleranceSeconds: 60 })).toThrow(
      WebhookVerificationError,
    );
  });

  it('accepts the Open Delivery X-App-Signature (hex HMAC-SHA256 keyed with the client secret)', () => {
    const clientSecret = randomBytes(24).toString('hex');
    const sig = createHmac('sha256', clientSecret).update(body).digest('hex');
    expect(verifyWebhook(body, { 'x-app-signature': sig }, clientSecret)).toMatchObject({ eventId: 'e1' });
    expect(verifyWebhook(body, { 'X-App-Signature': sig.toUpperCase() }, clientSecret)).toMatchObject({
      eventId: 'e1',
    });
    expect(() => verifyWebhook(`${body} `, { 'x-app-signature': sig }, clientSecret)).toThrow(
      WebhookVerificationError,
    );
    expect(() => verifyWebhook(body, { 'x-app-signature': sig }, 'other')).toThrow(WebhookVerificationError);
    expect(() => verifyWebhook(body, { 'x-app-signature': 'zz' }, clientSecret)).toThrow(
      WebhookVerificationError,
    );
  });
});
