import { PANEL_ROLES } from '@od/contracts';
import type { Command } from 'commander';
import { type Ctx, enc, UsageError } from '../lib/context.ts';

/** Merchant panel users of a store (served by the panel service through the Admin API). */
export function registerUser(program: Command, ctx: Ctx): void {
  const user = program.command('user').description('merchant panel users of a store');

  user
    .command('invite <merchantId> <email>')
    .description('POST /admin/v1/merchants/{merchantId}/users: prints the single-use setup link (72 h)')
    .option('--role <role>', `${PANEL_ROLES.join(' | ')}`, 'OWNER')
    .action(async (merchantId: string, email: string, o: { role: string }) => {
      const role = o.role.toUpperCase();
      if (!(PANEL_ROLES as readonly string[]).includes(role))
        throw new UsageError(`--role must be one of ${PANEL_ROLES.join(', ')}`);
      ctx.print(
        await ctx.client().request('POST', `/admin/v1/merchants/${enc(merchantId)}/users`, { email, role }),
      );
    });

  user
    .command('list <merchantId>')
    .description('GET /admin/v1/merchants/{merchantId}/users')
    .action(async (merchantId: string) =>
      ctx.print(await ctx.client().request('GET', `/admin/v1/merchants/${enc(merchantId)}/users`)),
    );

  user
    .command('remove <merchantId> <userId>')
    .description(
      "DELETE /admin/v1/merchants/{merchantId}/users/{userId}: ends the user's access to the store",
    )
    .action(async (merchantId: string, userId: string) => {
      await ctx.client().request('DELETE', `/admin/v1/merchants/${enc(merchantId)}/users/${enc(userId)}`);
      ctx.print({ removed: userId, merchantId });
    });
}
