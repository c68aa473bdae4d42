import type { Command } from 'commander';
import type { Ctx } from '../lib/context.ts';

export function registerSecrets(program: Command, ctx: Ctx): void {
  const secrets = program.command('secrets').description('secrets at rest');
  secrets
    .command('rotate-key')
    .description(
      'POST /admin/v1/secrets/rotate-key: re-encrypt every webhook secret under the active key ' +
        '(SECRETS_ACTIVE_KEY of the auth replicas); prints { activeKeyId, resealed, remaining }',
    )
    .action(async () => ctx.print(await ctx.client().request('POST', '/admin/v1/secrets/rotate-key')));
}
