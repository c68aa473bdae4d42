import { createHmac, timingSafeEqual } from 'node:crypto';
import type { EventEnvelope, Profile } from './types.ts';

/** The signature is missing, wrong, or its timestamp is too far from this clock: answer 400, ignore the body. */
export class WebhookVerificationError extends Error {
  override readonly name = 'WebhookVerificationError';
}

export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>;

export interface VerifyOptions {
  /** accepted distance between the signature's timestamp and this clock (default 300 s, the API's rule) */
  toleranceSeconds?: number;
  /** this clock, in milliseconds (tests) */
  now?: number;
}

const header = (h: WebhookHeaders, name: string): string | undefined => {
  if (h instanceof Headers) return h.get(name) ?? undefined;
  const key = Object.keys(h).find((k) => k.toLowerCase() === name);
  const v = key === undefined ? undefined : h[key];
  return Array.isArray(v) ? v.join(',') : v;
};

const equal = (a: Buffer, b: Buffer) => a.length === b.length && timingSafeEqual(a, b);

/**
 * Verifies a webhook request on its **raw** body (the bytes received, before any JSON parsing) and
 * returns the parsed event. Two schemes, chosen by the headers present:
 * - the platform's webhook (Standard Webhooks): `webhook-id`, `webhook-timestamp`,
 *   `webhook-signature` (also sent as `X-Service-Event-Id`, `X-Service-Timestamp`,
 *   `X-Service-Signature`); `secret` is the credential's `whsec_...` webhook secret; HMAC-SHA256 of
 *   `{id}.{timestamp}.{body}`; during a secret rotation any of the listed signatures may match;
 *   the timestamp must be within 5 minutes of this clock;
 * - the Open Delivery push (`/v1/newEvent`, OPEN_DELIVERY credentials): `X-App-Signature` =
 *   hex HMAC-SHA256 of the body keyed with the credential's client secret (the standard signs no
 *   timestamp: deduplicate by `eventId`).
 * Comparisons are constant time. Throws {@link WebhookVerificationError}.
 */
export function verifyWebhook<P extends Profile = 'SPEC'>(
  rawBody: string | Uint8Array,
  headers: WebhookHeaders,
  secret: string,
  options: VerifyOptions = {},
): EventEnvelope<P> {
  const body = typeof rawBody === 'string' ? Buffer.from(rawBody, 'utf8') : Buffer.from(rawBody);
  const signature = header(headers, 'webhook-signature') ?? header(headers, 'x-service-signature');
  if (signature !== undefined) {
    const id = header(headers, 'webhook-id') ?? header(headers, 'x-service-event-id');
    const ts = header(headers, 'webhook-timestamp') ?? header(headers, 'x-service-timestamp');
    if (!id || !ts || !/^\d{1,12}$/.test(ts))
      throw new WebhookVerificationError('missing webhook-id or webhook-timestamp');
    const now = Math.floor((options.now ?? Date.now()) / 1000);
    if (Math.abs(now - Number(ts)) > (options.toleranceSeconds ?? 300))
      throw new WebhookVerificationError('timestamp outside the tolerance');
    const key = Buffer.from(secret.startsWith('whsec_') ? secret.slice(6) : secret, 'base64');
    if (key.length === 0) throw new WebhookVerificationError('empty secret');
    const expected = createHmac('sha256', key)
      .update(Buffer.concat([Buffer.from(`${id}.${ts}.`, 'utf8'), body]))
      .digest();
    const ok = signature
      .split(' ')
      .map((s) => s.split(','))
      .some(([version, sig]) => version === 'v1' && !!sig && equal(Buffer.from(sig, 'base64'), expected));
    if (!ok) throw new WebhookVerificationError('no matching signature');
  } else {
    const app = header(headers, 'x-app-signature');
    if (app === undefined) throw new WebhookVerificationError('no signature header');
    const expected = createHmac('sha256', Buffer.from(secret, 'utf8')).update(body).digest();
    if (!/^[0-9a-fA-F]{64}$/.test(app.trim()) || !equal(Buffer.from(app.trim(), 'hex'), expected))
      throw new WebhookVerificationError('X-App-Signature does not match');
  }
  try {
    return JSON.parse(body.toString('utf8')) as EventEnvelope<P>;
  } catch {
    throw new WebhookVerificationError('the body is not JSON');
  }
}
