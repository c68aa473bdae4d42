// Writes deploy/nats/nats.conf: the secured nats-server configuration of a deployment, one user per
// service with the permissions of libs/bus/src/permissions.ts. Passwords are not in the file: the
// server reads them from its environment (NATS_PASSWORD_AUTH, ... NATS_PASSWORD_GATEWAY).
//   pnpm nats-config [--prefix od] [--check]      --check fails when the file is not up to date (CI)
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { BUS_IDENTITIES, type BusIdentity, natsServerConfig } from '@od/bus';
import { ROOT } from './services.ts';

export const DEPLOY_CONF = path.join(ROOT, 'deploy', 'nats', 'nats.conf');
export const passwordVar = (id: BusIdentity) => `NATS_PASSWORD_${id.toUpperCase()}`;

export function deployConfig(prefix = 'od'): string {
  return natsServerConfig({
    prefix,
    listen: '0.0.0.0:4222',
    httpPort: 8222,
    storeDir: '/data',
    passwords: Object.fromEntries(BUS_IDENTITIES.map((id) => [id, `$${passwordVar(id)}`])) as Record<
      BusIdentity,
      string
    >,
  });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const args = process.argv.slice(2);
  const prefix = args.includes('--prefix') ? args[args.indexOf('--prefix') + 1] : 'od';
  const text = deployConfig(prefix);
  if (args.includes('--check')) {
    if (readFileSync(DEPLOY_CONF, 'utf8') !== text) {
      console.error('deploy/nats/nats.conf is not up to date: run pnpm nats-config');
      process.exit(1);
    }
  } else {
    writeFileSync(DEPLOY_CONF, text);
    console.log(`wrote ${path.relative(ROOT, DEPLOY_CONF)} (prefix ${prefix})`);
  }
}
