import { type ChildProcess, spawn } from 'node:child_process';
import net from 'node:net';
import { Redis } from 'ioredis';

/** A free TCP port on 127.0.0.1 (asked from the OS, released right away). */
export async function freePort(): Promise<number> {
  const s = net.createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const { port } = s.address() as net.AddressInfo;
  await new Promise((r) => s.close(r));
  return port;
}

/**
 * A redis-server of the test's own (spare port, no persistence), for tests that flush, stop or
 * reconfigure Redis: the machine's default instance is shared and never touched.
 */
export async function startRedisServer(): Promise<{ url: string; stop(): Promise<void> }> {
  const port = await freePort();
  const child: ChildProcess = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    { stdio: 'ignore' },
  );
  const url = `redis://127.0.0.1:${port}`;
  const deadline = Date.now() + 10_000;
  for (;;) {
    const r = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
    r.on('error', () => {}); // refused until the server listens
    try {
      await r.connect();
      await r.ping();
      r.disconnect();
      break;
    } catch (e) {
      r.disconnect();
      if (Date.now() > deadline || child.exitCode !== null) {
        child.kill('SIGKILL');
        throw new Error(`redis-server did not start: ${(e as Error).message}`);
      }
      await new Promise((res) => setTimeout(res, 50));
    }
  }
  return {
    url,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
