import type { Command } from 'commander';
import type { Ctx } from '../lib/context.ts';

export function registerHealth(program: Command, ctx: Ctx): void {
  program
    .command('health')
    .description('GET /admin/v1/health: whether every service answers (exit 1 when one does not)')
    .action(async () => ctx.print(await ctx.client().request('GET', '/admin/v1/health')));
}
