/**
 * The quick start of the public OpenAPI document (Markdown, shown by the docs page at /docs): the
 * SDK path first, then the same calls with curl. libs/client/src/package.test.ts checks that every
 * SDK call it names exists.
 */
export const QUICK_START = `

## Quick start

With the SDK (\`@od/client\` on npm, Node.js 20+: shared token, retries, Idempotency-Key, deduplication and typed errors included):

\`\`\`ts
import { createOdClient, OdApiError } from '@od/client';

const od = createOdClient({ baseUrl: 'https://api.example.com', clientId, clientSecret });
await od.events.consume(async (event, { order }) => {
  if (event.eventType !== 'CREATED') return; // acknowledged all the same
  console.log(await order());
  await od.orders.confirm(event.orderId).catch((e) => {
    if (!(e instanceof OdApiError && e.kind === 'state')) throw e; // 422: cancelled meanwhile
  });
});
\`\`\`

With curl: \`POST /oauth/token\` (form body \`grant_type=client_credentials&client_id=...&client_secret=...\`), then with
\`Authorization: Bearer <access_token>\`: \`GET /v1/events:polling\`, \`GET\` each event's \`orderURL\`,
\`POST /v1/events/acknowledgment\` with \`[{ "id": "<eventId>" }]\`, and \`POST /v1/orders/{orderId}/confirm\`
with an \`Idempotency-Key\` header. Rebuilding a day: \`GET /v1/orders\` and \`GET /v1/events\` (extensions).`;

/** The quick start closes the public document's description (the title names the document). */
export const quickStartOf = (title: string): string =>
  title === 'Open Delivery Order and Merchant API' ? QUICK_START : '';
