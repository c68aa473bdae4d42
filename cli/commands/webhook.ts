import type { Command } from 'commander';
import { type Ctx, enc } from '../lib/context.ts';

export function registerWebhook(program: Command, ctx: Ctx): void {
  const wh = program.command('webhook').description("a credential's webhook deliveries");

  wh.command('attempts <clientId>')
    .description('GET /admin/v1/credentials/{clientId}/webhook-attempts (newest first)')
    .action(async (clientId: string) =>
      ctx.print(await ctx.client().request('GET', `/admin/v1/credentials/${enc(clientId)}/webhook-attempts`)),
    );

  wh.command('resend <clientId> <eventId>')
    .description('POST /admin/v1/credentials/{clientId}/events/{eventId}/resend: deliver again')
    .action(async (clientId: string, eventId: string) =>
      ctx.print(
        await ctx
          .client()
          .request('POST', `/admin/v1/credentials/${enc(clientId)}/events/${enc(eventId)}/resend`),
      ),
    );

  wh.command('clear <clientId>')
    .description(
      'POST /admin/v1/credentials/{clientId}/webhook-queue/clear: clear the queue, re-enable the URL',
    )
    .action(async (clientId: string) =>
      ctx.print(
        await ctx.client().request('POST', `/admin/v1/credentials/${enc(clientId)}/webhook-queue/clear`),
      ),
    );
}
