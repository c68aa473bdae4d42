import { randomBytes } from 'node:crypto';
import { generateRpcKeyPair } from '@od/bus';

/**
 * What every process of a whole stack needs to start with `NODE_ENV=production` on this machine, for
 * a run of the benchmarks or the chaos scenario: fresh secrets (none is ever reused or printed),
 * links on `.invalid` hosts (production accepts https:// links alone; nothing follows them), no rate
 * limits (the runs measure the platform, not the quotas) and webhooks allowed to local receivers.
 * `label` names the run in the admin token, the hosts and the SECRETS_KEYS key id.
 */
export function localProductionEnv(label: string): Record<string, string> {
  const secret = () => randomBytes(32).toString('hex');
  return {
    NODE_ENV: 'production',
    LOG_LEVEL: 'warn',
    HOST: '127.0.0.1',
    ADMIN_TOKEN: `${label}-admin-${randomBytes(12).toString('hex')}`,
    JWT_SECRET: secret(),
    PUBLIC_BASE_URL: `https://api.${label}.invalid`,
    PANEL_PUBLIC_URL: `https://panel.${label}.invalid`,
    RATE_LIMIT_ENABLED: 'false',
    WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
    CLIENT_SECRET_KEY: secret(),
    SECRETS_KEYS: `${label}:${randomBytes(32).toString('base64')}`,
  };
}

/**
 * A new Ed25519 pair per signer: each process's `RPC_SIGNING_KEY` (by name) and the
 * `RPC_PUBLIC_KEYS` ring every process gets.
 */
export function rpcKeyRing(signers: readonly string[]): {
  signingKeys: Record<string, string>;
  publicKeys: string;
} {
  const pairs = signers.map((name) => [name, generateRpcKeyPair()] as const);
  return {
    signingKeys: Object.fromEntries(pairs.map(([name, k]) => [name, k.signingKey])),
    publicKeys: pairs.map(([name, k]) => `${name}=${k.publicKey}`).join(','),
  };
}
