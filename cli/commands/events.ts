import type { Command } from 'commander';
import { type Ctx, enc } from '../lib/context.ts';

export function registerEvents(program: Command, ctx: Ctx): void {
  program
    .command('events <clientId>')
    .description("GET /admin/v1/credentials/{clientId}/events: the credential's feed with ack state")
    .option('--limit <n>', 'how many events')
    .action(async (clientId: string, o: { limit?: string }) => {
      const q = o.limit ? `?limit=${enc(o.limit)}` : '';
      ctx.print(await ctx.client().request('GET', `/admin/v1/credentials/${enc(clientId)}/events${q}`));
    });
}
