import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BUS_IDENTITIES, type BusIdentity, natsServerConfig } from '@od/bus';
import { findNatsServer, type RunningNats, startNatsServer } from '../../../scripts/lib/nats-server.ts';
import { uniquePrefix } from './fixtures.ts';
import { freePort } from './servers.ts';
import { type StackOptions, startStack, type TestStack } from './stack.ts';

export interface SecuredStack {
  stack: TestStack;
  /** the stack's own nats-server (its output logs permission violations) */
  nats: RunningNats;
  /** the generated password of each service identity */
  passwords: Record<BusIdentity, string>;
  /** starts the nats-server again on the same port and JetStream directory (after `nats.stop()`) */
  restartNats(): Promise<RunningNats>;
  stop(): Promise<void>;
}

/**
 * The stack as `pnpm start` runs it: its own nats-server with the generated secured configuration
 * (libs/bus permissions, the same that makes deploy/nats/nats.conf) and every service on it with
 * its own identity and a random password. Throws when no nats-server binary is found.
 */
export async function startSecuredStack(opts: Omit<StackOptions, 'prefix'> = {}): Promise<SecuredStack> {
  const bin = findNatsServer();
  if (!bin) throw new Error('nats-server not found (NATS_SERVER_BIN, PATH or /usr/sbin/nats-server)');
  const prefix = uniquePrefix();
  const passwords = Object.fromEntries(
    BUS_IDENTITIES.map((id) => [id, randomBytes(18).toString('base64url')]),
  ) as Record<BusIdentity, string>;
  const dir = mkdtempSync(path.join(os.tmpdir(), 'od-nats-secured-'));
  const port = await freePort();
  const startServer = () =>
    startNatsServer({
      bin,
      dir,
      port,
      config: (storeDir) => natsServerConfig({ prefix, listen: `127.0.0.1:${port}`, storeDir, passwords }),
    });
  const handle: SecuredStack = {
    nats: await startServer(),
    passwords,
    stack: undefined as unknown as TestStack,
    restartNats: async () => {
      handle.nats = await startServer();
      return handle.nats;
    },
    stop: async () => {
      await handle.stack?.stop();
      await handle.nats.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  const extra = (opts.serviceEnv ?? {}) as Record<string, Record<string, string>>;
  const serviceEnv = Object.fromEntries(
    BUS_IDENTITIES.map((id) => [id, { NATS_USER: id, NATS_PASSWORD: passwords[id], ...extra[id] }]),
  );
  try {
    handle.stack = await startStack({
      ...opts,
      prefix,
      env: { ...opts.env, NATS_URL: handle.nats.url },
      serviceEnv,
    });
  } catch (err) {
    await handle.stop();
    throw err;
  }
  return handle;
}
