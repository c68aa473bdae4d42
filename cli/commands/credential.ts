import { API_PROFILES, DEFAULT_SCOPES, DELIVERY_MODES, SCOPES } from '@od/contracts';
import { type Command, Option } from 'commander';
import { type Ctx, enc, patchCommand, UsageError } from '../lib/context.ts';

/** every scope but the store-write grant (`merchant:write`), which is given only when named */
export const ALL_SCOPES: readonly string[] = DEFAULT_SCOPES;

export function registerCredential(program: Command, ctx: Ctx): void {
  const cred = program.command('credential').description("a store's API credentials");

  cred
    .command('create <merchantId>')
    .description('POST /admin/v1/merchants/{merchantId}/credentials (secrets are shown only here)')
    .option('--name <name>', 'credential name', 'odctl')
    .option(
      '--scopes <list>',
      `comma separated scopes among ${SCOPES.join(', ')}; merchant:write (changes the store through Open Delivery) only when named`,
      ALL_SCOPES.join(','),
    )
    .addOption(new Option('--mode <mode>', 'delivery mode').choices(DELIVERY_MODES).default('POLLING'))
    .option('--webhook-url <url>', 'HTTPS URL, required for WEBHOOK and BOTH')
    .option('--marketplace', 'include marketplace-channel orders in the feed')
    .addOption(
      new Option(
        '--api-profile <profile>',
        'SPEC (platform shapes) or OPEN_DELIVERY (official 1.4.0 contract)',
      )
        .choices(API_PROFILES)
        .default('SPEC'),
    )
    .action(
      async (
        merchantId: string,
        o: {
          name: string;
          scopes: string;
          mode: string;
          webhookUrl?: string;
          marketplace?: boolean;
          apiProfile: string;
        },
      ) => {
        const scopes = o.scopes
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean);
        if (!scopes.length) throw new UsageError('--scopes needs at least one scope');
        const body: Record<string, unknown> = { name: o.name, scopes, deliveryMode: o.mode };
        if (o.webhookUrl) body.webhookUrl = o.webhookUrl;
        if (o.marketplace) body.includeMarketplaceOrders = true;
        if (o.apiProfile !== 'SPEC') body.apiProfile = o.apiProfile;
        ctx.print(
          await ctx.client().request('POST', `/admin/v1/merchants/${enc(merchantId)}/credentials`, body),
        );
      },
    );

  cred
    .command('list <merchantId>')
    .description('GET /admin/v1/merchants/{merchantId}/credentials (never secrets)')
    .action(async (merchantId: string) =>
      ctx.print(await ctx.client().request('GET', `/admin/v1/merchants/${enc(merchantId)}/credentials`)),
    );

  for (const op of ['pause', 'resume', 'revoke'] as const) {
    cred
      .command(`${op} <clientId>`)
      .description(`POST /admin/v1/credentials/{clientId}/${op}${op === 'revoke' ? ' (permanent)' : ''}`)
      .action(async (clientId: string) =>
        ctx.print(await ctx.client().request('POST', `/admin/v1/credentials/${enc(clientId)}/${op}`)),
      );
  }

  cred
    .command('rename <clientId> <name>')
    .description('PATCH /admin/v1/credentials/{clientId} { name }')
    .action(async (clientId: string, name: string) =>
      ctx.print(await ctx.client().request('PATCH', `/admin/v1/credentials/${enc(clientId)}`, { name })),
    );

  patchCommand(cred, ctx, {
    name: 'update <clientId>',
    description:
      'PATCH /admin/v1/credentials/{clientId}: name, webhookUrl, deliveryMode, includeMarketplaceOrders',
    fields: 'fields to change; saving webhookUrl returns a new webhookSecret',
    path: (id) => `/admin/v1/credentials/${enc(id)}`,
  });

  cred
    .command('rotate-webhook-secret <clientId>')
    .description('POST /admin/v1/credentials/{clientId}/webhook-secret -> { webhookSecret }')
    .action(async (clientId: string) =>
      ctx.print(await ctx.client().request('POST', `/admin/v1/credentials/${enc(clientId)}/webhook-secret`)),
    );
}
