import { SIGNER_NAMES } from '@od/contracts';
import type { Command } from 'commander';
import { rpcKeyRing } from '../../scripts/lib/local-production-env.ts';
import type { Ctx } from '../lib/context.ts';

export function registerKeys(program: Command, ctx: Ctx): void {
  program
    .command('rpc-keys')
    .description(
      'new Ed25519 keys for the bus: RPC_SIGNING_KEY per signer (gateway, panel, each service) and the RPC_PUBLIC_KEYS ring every process gets',
    )
    .action(() => {
      const { signingKeys, publicKeys } = rpcKeyRing(SIGNER_NAMES);
      ctx.print({ RPC_SIGNING_KEY: signingKeys, RPC_PUBLIC_KEYS: publicKeys });
    });
}
