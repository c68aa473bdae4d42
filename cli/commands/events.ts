import type { Command } from 'commander';
import { type Ctx, enc } from '../lib/context.ts';

export function registerEvents(program: Command, ctx: Ctx): void {
  program
    .command('events <clientId>')
    .description("GET /admin/v1/credentials/{clientId}/events: the credential's feed with ack state")
    .option('--limit <n>', 'page size (1..500, default 50)')
    .option('--state <state>', 'all | pending | acknowledged')
    .option('--before <seq>', 'next page: nextBefore of the previous page')
    .action(async (clientId: string, o: { limit?: string; state?: string; before?: string }) => {
      const params = new URLSearchParams();
      for (const k of ['limit', 'state', 'before'] as const) if (o[k]) params.set(k, o[k]);
      const q = params.size ? `?${params}` : '';
      ctx.print(await ctx.client().request('GET', `/admin/v1/credentials/${enc(clientId)}/events${q}`));
    });
}
