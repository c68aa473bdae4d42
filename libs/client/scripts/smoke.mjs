// Smoke test of the built package (plain JavaScript, no loader): run with the oldest supported
// Node.js against a running API. Env: OD_BASE_URL, OD_CLIENT_ID, OD_CLIENT_SECRET, OD_MERCHANT_ID.
// Prints one JSON line of what it saw; exits non-zero on any failure.
import { createHmac } from 'node:crypto';
import { createOdClient, OdApiError, verifyWebhook } from '@od/client';

const env = process.env;
const od = createOdClient({
  baseUrl: env.OD_BASE_URL,
  clientId: env.OD_CLIENT_ID,
  clientSecret: env.OD_CLIENT_SECRET,
  merchantId: env.OD_MERCHANT_ID,
});
const merchant = await od.merchant.get();
let events = [];
for (let i = 0; i < 100 && events.length === 0; i++) {
  events = await od.events.poll({ limit: 10 });
  if (!events.length) await new Promise((r) => setTimeout(r, 100));
}
const [event] = events;
const order = await od.orders.get(event.orderId);
const action = await od.orders.confirm(event.orderId);
const ack = await od.events.ack(events);
const notFound = await od.orders.get('0b6f8f0e-4a53-4a8e-9a4b-0c4f2b7d9e11').catch((e) => e);
const body = JSON.stringify(event);
const signed = verifyWebhook(
  body,
  { 'x-app-signature': createHmac('sha256', 'k').update(body).digest('hex') },
  'k',
);
console.log(
  JSON.stringify({
    node: process.version,
    merchant: merchant.id,
    eventType: event.eventType,
    order: order.id,
    action,
    ack,
    notFound: notFound instanceof OdApiError ? notFound.error : String(notFound),
    verified: signed.eventId === event.eventId,
  }),
);
