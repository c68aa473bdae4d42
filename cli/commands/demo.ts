import type { Command } from 'commander';
import type { AdminClient } from '../lib/client.ts';
import { AdminError } from '../lib/client.ts';
import { type Ctx, enc } from '../lib/context.ts';
import { sampleMenu, sampleMerchant } from '../lib/samples.ts';
import { ALL_SCOPES } from './credential.ts';

export interface DemoResult {
  merchantId: string;
  clientId: string;
  clientSecret: string;
  webhookSecret: string | null;
  publicUrl: string;
  adminUrl: string;
  /** the sample order created after the credential (so the first poll returns its CREATED event) */
  orderId: string | null;
  warnings: string[];
  /** ready-to-paste shell lines, in the order of the integration cycle */
  curl: Record<string, string>;
  next: string[];
}

const sq = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** The integration cycle as curl lines (SPEC "What the service does": token, poll, order, ack, act). */
export function curlLines(publicUrl: string, merchantId: string, clientId: string, clientSecret: string) {
  const auth = '-H "Authorization: Bearer $TOKEN"';
  return {
    token:
      `TOKEN=$(curl -s -X POST ${publicUrl}/oauth/token -d grant_type=client_credentials ` +
      `-d client_id=${sq(clientId)} -d client_secret=${sq(clientSecret)} ` +
      `| sed -E 's/.*"access_token":"([^"]+)".*/\\1/'); echo "$TOKEN"`,
    merchant: `curl -s ${auth} ${publicUrl}/v1/merchant/${merchantId}`,
    menu: `curl -s ${auth} ${publicUrl}/v1/merchant/${merchantId}/menus`,
    poll: `curl -s ${auth} '${publicUrl}/v1/events:polling?limit=100'`,
    order: `curl -s ${auth} "$ORDER_URL"   # ORDER_URL = orderURL of a polled event`,
    ack:
      `curl -s -X POST ${auth} -H 'Content-Type: application/json' ` +
      `-d '[{"id":"'"$EVENT_ID"'"}]' ${publicUrl}/v1/events/acknowledgment   # EVENT_ID = eventId of a polled event`,
    confirm:
      `curl -s -X POST ${auth} -H "Idempotency-Key: $(uuidgen 2>/dev/null || date +%s%N)" ` +
      `"$ORDER_URL/confirm"`,
  };
}

export async function runDemo(
  client: AdminClient,
  opts: { publicUrl: string; name: string; order: boolean },
): Promise<DemoResult> {
  const warnings: string[] = [];
  const merchant = await client.request<{ id: string }>('POST', '/admin/v1/merchants', {
    ...(await sampleMerchant(opts.name)),
    test: true,
  });
  await client.request('PUT', `/admin/v1/merchants/${enc(merchant.id)}/menu`, await sampleMenu());
  const cred = await client.request<{
    clientId: string;
    clientSecret: string;
    webhookSecret?: string | null;
  }>('POST', `/admin/v1/merchants/${enc(merchant.id)}/credentials`, {
    name: 'demo',
    scopes: ALL_SCOPES,
    deliveryMode: 'POLLING',
  });
  let orderId: string | null = null;
  if (opts.order) {
    try {
      const order = await client.request<{ id: string }>(
        'POST',
        `/admin/v1/merchants/${enc(merchant.id)}/orders`,
        {
          type: 'DELIVERY',
        },
      );
      orderId = order.id;
    } catch (e) {
      // the store and the credential are usable without it; say why the feed is empty
      warnings.push(
        `sample order not created: ${e instanceof AdminError ? JSON.stringify(e.toJSON()) : String(e)}`,
      );
    }
  }
  return {
    merchantId: merchant.id,
    clientId: cred.clientId,
    clientSecret: cred.clientSecret,
    webhookSecret: cred.webhookSecret ?? null,
    publicUrl: opts.publicUrl,
    adminUrl: client.url,
    orderId,
    warnings,
    curl: curlLines(opts.publicUrl, merchant.id, cred.clientId, cred.clientSecret),
    next: [
      'Run the curl lines in order in one shell: token sets $TOKEN, poll shows events.',
      'Set ORDER_URL and EVENT_ID from a polled event, then fetch the order, ack the event and confirm it.',
      `More orders: pnpm odctl order create ${merchant.id} --type DELIVERY`,
      `The feed as the panel sees it: pnpm odctl events ${cred.clientId}`,
      'The client secret is shown only once: keep it out of code, logs and URLs.',
    ],
  };
}

export function registerDemo(program: Command, ctx: Ctx): void {
  program
    .command('demo')
    .description(
      'create a test store with the sample menu, a credential with every scope and a sample order; ' +
        'print the ids, the secrets and the curl lines of the integration cycle',
    )
    .option(
      '--public-url <url>',
      'public base URL for the curl lines (env PUBLIC_BASE_URL, default http://localhost:8080)',
    )
    .option('--name <name>', 'store name', 'Loja de demonstração')
    .option('--no-order', 'do not create the sample order')
    .action(async (o: { publicUrl?: string; name: string; order: boolean }) => {
      ctx.print(
        await runDemo(ctx.client(), { publicUrl: ctx.publicUrl(o.publicUrl), name: o.name, order: o.order }),
      );
    });
}
