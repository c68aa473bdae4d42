import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import type { ServiceKey, TestStack } from './stack.ts';

const ROOT = path.resolve(import.meta.dirname, '..', '..', '..');

/**
 * Replicas of a service as child processes of the stack (`node services/<name>`), for tests that
 * SIGKILL them: `start()` resolves once the replica logged "<name> started"; `killAll()` ends
 * every one still running. `env` is added to the stack's configuration.
 */
export function serviceChildren(
  stack: () => TestStack,
  service: ServiceKey,
  env: Record<string, string> = {},
) {
  const children = new Set<ChildProcess>();
  function start(): Promise<ChildProcess> {
    const c = stack().config;
    const child = spawn(process.execPath, [path.join(ROOT, `services/${service}/bin.mjs`)], {
      cwd: ROOT,
      env: {
        ...process.env,
        NODE_ENV: 'test',
        LOG_LEVEL: 'info',
        DATABASE_URL: c.DATABASE_URL,
        NATS_URL: c.NATS_URL,
        NATS_PREFIX: c.NATS_PREFIX,
        REDIS_URL: c.REDIS_URL,
        PUBLIC_BASE_URL: c.PUBLIC_BASE_URL,
        ADMIN_TOKEN: c.ADMIN_TOKEN,
        JWT_SECRET: c.JWT_SECRET,
        ...env,
      },
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    children.add(child);
    child.on('exit', () => children.delete(child));
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${service} child did not start`)), 30_000);
      let buf = '';
      child.stdout?.on('data', (d: Buffer) => {
        buf += d.toString();
        if (buf.includes(`${service} started`)) {
          clearTimeout(timer);
          child.stdout?.removeAllListeners('data');
          child.stdout?.resume();
          resolve(child);
        }
      });
      child.on('exit', (code) => reject(new Error(`${service} child exited ${code}`)));
    });
  }
  return {
    start,
    killAll() {
      for (const c of children) c.kill('SIGKILL');
    },
  };
}
