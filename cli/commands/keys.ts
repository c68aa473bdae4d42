import { generateRpcKeyPair } from '@od/bus';
import { SIGNER_NAMES } from '@od/contracts';
import type { Command } from 'commander';
import type { Ctx } from '../lib/context.ts';

export function registerKeys(program: Command, ctx: Ctx): void {
  program
    .command('rpc-keys')
    .description(
      'new Ed25519 keys for the bus: RPC_SIGNING_KEY per signer (gateway, panel, each service) and the RPC_PUBLIC_KEYS ring every process gets',
    )
    .action(() => {
      const pairs = SIGNER_NAMES.map((name) => [name, generateRpcKeyPair()] as const);
      ctx.print({
        RPC_SIGNING_KEY: Object.fromEntries(pairs.map(([name, k]) => [name, k.signingKey])),
        RPC_PUBLIC_KEYS: pairs.map(([name, k]) => `${name}=${k.publicKey}`).join(','),
      });
    });
}
