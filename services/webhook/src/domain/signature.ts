import { createHmac } from 'node:crypto';

/**
 * Standard Webhooks signing (DESIGN "Webhook signature"): signed content
 * `${eventId}.${unixSeconds}.${rawBody}`, HMAC-SHA256 keyed with the base64-decoded part of the secret
 * after `whsec_`, sent as `v1,<base64>`; several secrets (rotation) give a space-separated list.
 */
const SECRET_PREFIX = 'whsec_';

function secretKey(secret: string): Buffer {
  const b64 = secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret;
  const key = Buffer.from(b64, 'base64');
  if (key.length === 0) throw new Error('empty webhook secret');
  return key;
}

export function sign(secret: string, eventId: string, timestamp: number, rawBody: string): string {
  const mac = createHmac('sha256', secretKey(secret)).update(`${eventId}.${timestamp}.${rawBody}`, 'utf8');
  return `v1,${mac.digest('base64')}`;
}

export interface SignatureInput {
  /** newest first; two during a rotation */
  secrets: string[];
  eventId: string;
  merchantId: string;
  /** unix seconds */
  timestamp: number;
  rawBody: string;
}

/** Every header of a webhook request (values identical under both header families). */
export function webhookHeaders(input: SignatureInput): Record<string, string> {
  if (input.secrets.length === 0) throw new Error('no webhook secret');
  const signature = input.secrets
    .map((s) => sign(s, input.eventId, input.timestamp, input.rawBody))
    .join(' ');
  const ts = String(input.timestamp);
  return {
    'content-type': 'application/json',
    'x-service-signature': signature,
    'x-service-timestamp': ts,
    'x-service-event-id': input.eventId,
    'x-service-merchant-id': input.merchantId,
    'webhook-id': input.eventId,
    'webhook-timestamp': ts,
    'webhook-signature': signature,
  };
}
