import { randomUUID } from 'node:crypto';
import { createOdClient, OdApiError, type OdClient } from '@od/client';
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
  /** shell lines of the integration cycle by step (in order; `--shell` prints them as a script) */
  curl: Record<string, string>;
  /** the environment of the SDK's first integration (libs/client/README.md) */
  sdk: string;
  steps: CurlStep[];
  next: string[];
}

const sq = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** One step of the integration cycle: what it does and the shell line that does it. */
export interface CurlStep {
  step: string;
  does: string;
  line: string;
}

/**
 * The integration cycle (SPEC "What the service does": token, poll, fetch the order at orderURL,
 * ack, act) as POSIX shell lines using curl, grep and cut only. Run in order in one shell.
 */
function curlSteps(
  publicUrl: string,
  merchantId: string,
  clientId: string,
  clientSecret: string,
): CurlStep[] {
  const auth = '-H "Authorization: Bearer $TOKEN"';
  const field = (name: string, from: string) =>
    `$(printf '%s' "${from}" | grep -o '"${name}":"[^"]*"' | head -1 | cut -d'"' -f4)`;
  return [
    {
      step: 'token',
      does: 'POST /oauth/token (form body): a bearer token valid 3600 s',
      line:
        `TOKEN=$(curl -s -X POST ${publicUrl}/oauth/token -d grant_type=client_credentials ` +
        `-d client_id=${sq(clientId)} -d client_secret=${sq(clientSecret)} ` +
        `| grep -o '"access_token":"[^"]*"' | cut -d'"' -f4); echo "$TOKEN"`,
    },
    {
      step: 'merchant',
      does: 'GET the store',
      line: `curl -s ${auth} ${publicUrl}/v1/merchant/${merchantId}; echo`,
    },
    {
      step: 'menu',
      does: 'GET its menu',
      line: `curl -s ${auth} ${publicUrl}/v1/merchant/${merchantId}/menus; echo`,
    },
    {
      step: 'poll',
      does: 'GET pending events (oldest first; [] when none)',
      line: `EVENTS=$(curl -s ${auth} '${publicUrl}/v1/events:polling?limit=100'); echo "$EVENTS"`,
    },
    {
      step: 'pick',
      does: 'eventId and orderURL of the first event',
      line: `EVENT_ID=${field('eventId', '$EVENTS')}; ORDER_URL=${field('orderURL', '$EVENTS')}; echo "$EVENT_ID $ORDER_URL"`,
    },
    {
      step: 'order',
      does: 'GET the order at orderURL, same token',
      line: `curl -s ${auth} "$ORDER_URL"; echo`,
    },
    {
      step: 'ack',
      does: 'POST the acknowledgment: the event stops coming back',
      line:
        `curl -s -X POST ${auth} -H 'Content-Type: application/json' ` +
        `-d '[{"id":"'"$EVENT_ID"'"}]' ${publicUrl}/v1/events/acknowledgment; echo`,
    },
    {
      step: 'confirm',
      does: 'POST an action with an Idempotency-Key (a retry with the same key replays the answer)',
      line: `curl -s -X POST ${auth} -H "Idempotency-Key: ${randomUUID()}" "$ORDER_URL/confirm"; echo`,
    },
  ];
}

/** `demo --shell`: a ready-to-paste script, secrets as comments on top. */
function demoShell(d: DemoResult): string {
  const lines = [
    '# Open Delivery demo: a test store, a credential with every scope and a sample order.',
    `# merchantId    ${d.merchantId}`,
    `# clientId      ${d.clientId}`,
    `# clientSecret  ${d.clientSecret}   (shown only once)`,
    `# orderId       ${d.orderId ?? '(none)'}`,
    ...d.warnings.map((w) => `# warning: ${w}`),
    '',
  ];
  for (const s of d.steps) lines.push(`# ${s.step}: ${s.does}`, s.line, '');
  lines.push(
    '# the SDK (@od/client): this environment, then the first integration of libs/client/README.md',
    `# ${d.sdk}`,
    '',
  );
  return `${lines.join('\n')}`;
}

/**
 * Waits, through the public API with the SDK (the new credential's own token), until the
 * credential's feed holds an event of the order, so the first poll shows it. `GET /v1/events`
 * reads without acknowledging anything.
 */
async function waitForFeed(od: OdClient, orderId: string, since: string, ms = 5000): Promise<boolean> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    try {
      const page = await od.events.history({ createdFrom: since, limit: 100 });
      if (page.events.some((e) => e.orderId === orderId)) return true;
    } catch (e) {
      // 401: the gateways have not seen the new credential yet; anything else will not get better
      if (!(e instanceof OdApiError && e.status === 401)) return false;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return false;
}

/** Shell line setting the environment the SDK's first integration (libs/client/README.md) reads. */
export const sdkEnv = (publicUrl: string, clientId: string, clientSecret: string) =>
  `export OD_BASE_URL=${sq(publicUrl)} OD_CLIENT_ID=${sq(clientId)} OD_CLIENT_SECRET=${sq(clientSecret)}`;

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
  const steps = curlSteps(opts.publicUrl, merchant.id, cred.clientId, cred.clientSecret);
  const od = createOdClient({
    baseUrl: opts.publicUrl,
    clientId: cred.clientId,
    clientSecret: cred.clientSecret,
    merchantId: merchant.id,
    retry: { attempts: 2, baseMs: 100, maxMs: 500 },
  });
  const since = new Date(Date.now() - 60_000).toISOString();
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
      if (!(await waitForFeed(od, order.id, since))) {
        warnings.push('the CREATED event of the sample order is not in the feed yet; poll again in a moment');
      }
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
    curl: Object.fromEntries(steps.map((x) => [x.step, x.line])),
    sdk: sdkEnv(opts.publicUrl, cred.clientId, cred.clientSecret),
    steps,
    next: [
      'Run the curl lines in order in one shell (or: pnpm -s demo --shell > try.sh && sh try.sh).',
      'Or the SDK: run the `sdk` line, then the first integration of libs/client/README.md (@od/client).',
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
    .option('--shell', 'print a ready-to-paste shell script instead of JSON')
    .action(async (o: { publicUrl?: string; name: string; order: boolean; shell?: boolean }) => {
      const d = await runDemo(ctx.client(), {
        publicUrl: ctx.publicUrl(o.publicUrl),
        name: o.name,
        order: o.order,
      });
      if (o.shell) return ctx.io.out(demoShell(d));
      const { steps: _steps, ...json } = d;
      ctx.print(json);
    });
}
