import { createHmac } from 'node:crypto';
import type { EventEnvelope } from '@od/contracts';
import { toOdEvent } from '@od/opendelivery';

/**
 * The Open Delivery 1.4.0 push (`x-webhooks` `/v1/newEvent`) for OPEN_DELIVERY credentials. Pure.
 *
 * - URL: `{webhookUrl}/v1/newEvent` (the credential's URL is the software service's base URL; a URL
 *   already ending in `/v1/newEvent` is used as is).
 * - Body: the standard `Event` (toOdEvent); a platform event the standard has no type for is not sent.
 * - Headers: `X-App-Id` (this ordering application's id, `OD_APP_ID`), `X-App-MerchantId` (the store),
 *   `X-App-Signature` = lowercase hex HMAC-SHA256 of the exact body bytes keyed with the client
 *   secret ("Webhook Security" in the standard).
 */
const NEW_EVENT_PATH = '/v1/newEvent';

export function newEventUrl(webhookUrl: string): string {
  let url: URL;
  try {
    url = new URL(webhookUrl);
  } catch {
    return webhookUrl; // the sender refuses it with the URL rules' own message
  }
  const path = url.pathname.replace(/\/+$/, '');
  if (!path.endsWith(NEW_EVENT_PATH)) url.pathname = path + NEW_EVENT_PATH;
  return url.toString();
}

export const odSignature = (clientSecret: string, body: string): string =>
  createHmac('sha256', Buffer.from(clientSecret, 'utf8')).update(Buffer.from(body, 'utf8')).digest('hex');

export interface OdPush {
  url: string;
  body: string;
  headers: Record<string, string>;
}

/** The request for one stored SPEC envelope, or null when the standard has no such event. */
export function odPush(o: {
  webhookUrl: string;
  envelopeText: string;
  clientSecret: string;
  appId: string;
  merchantId: string;
}): OdPush | null {
  const event = toOdEvent(JSON.parse(o.envelopeText) as EventEnvelope, o.appId);
  if (!event) return null;
  const body = JSON.stringify(event);
  return {
    url: newEventUrl(o.webhookUrl),
    body,
    headers: {
      'content-type': 'application/json',
      'x-app-id': o.appId,
      'x-app-merchantid': o.merchantId,
      'x-app-signature': odSignature(o.clientSecret, body),
    },
  };
}
