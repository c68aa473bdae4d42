import net from 'node:net';

export interface Infra {
  databaseUrl: string;
  redisUrl: string;
  natsUrl: string;
}

/** Whether something accepts TCP connections at the URL's host and port (1 s bound). */
export function answers(url: string, fallbackPort: number): Promise<boolean> {
  const u = new URL(
    url
      .replace(/^nats:/, 'http:')
      .replace(/^redis:/, 'http:')
      .replace(/^postgres(ql)?:/, 'http:'),
  );
  return new Promise((resolve) => {
    const s = net.connect({ host: u.hostname || '127.0.0.1', port: Number(u.port) || fallbackPort });
    s.setTimeout(1000);
    s.once('connect', () => {
      s.destroy();
      resolve(true);
    });
    s.once('error', () => resolve(false));
    s.once('timeout', () => {
      s.destroy();
      resolve(false);
    });
  });
}

/**
 * Real PostgreSQL, Redis and NATS for tests: the URLs from the environment (or the local defaults)
 * when they answer, testcontainers otherwise. Never mocks.
 */
export async function resolveInfra(): Promise<{ infra: Infra; stop: () => Promise<void> }> {
  const infra: Infra = {
    databaseUrl: process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres',
    redisUrl: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
    natsUrl: process.env.NATS_URL ?? 'nats://127.0.0.1:4222',
  };
  const stops: (() => Promise<unknown>)[] = [];
  if (!(await answers(infra.databaseUrl, 5432))) {
    const { PostgreSqlContainer } = await import('@testcontainers/postgresql');
    const c = await new PostgreSqlContainer('postgres:16-alpine').start();
    infra.databaseUrl = c.getConnectionUri();
    stops.push(() => c.stop());
  }
  if (!(await answers(infra.redisUrl, 6379))) {
    const { RedisContainer } = await import('@testcontainers/redis');
    const c = await new RedisContainer('redis:7-alpine').start();
    infra.redisUrl = c.getConnectionUrl();
    stops.push(() => c.stop());
  }
  if (!(await answers(infra.natsUrl, 4222))) {
    const { GenericContainer } = await import('testcontainers');
    const c = await new GenericContainer('nats:2.10-alpine')
      .withCommand(['-js'])
      .withExposedPorts(4222)
      .start();
    infra.natsUrl = `nats://${c.getHost()}:${c.getMappedPort(4222)}`;
    stops.push(() => c.stop());
  }
  return { infra, stop: async () => void (await Promise.all(stops.map((s) => s()))) };
}
